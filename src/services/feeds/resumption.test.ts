/** @module Unit tests for OAI-PMH resumption tokens: round trip, seal, expiry, shape. */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decodeResumptionToken,
  encodeResumptionToken,
  type ResumptionState,
} from "./resumption.ts";

const state: ResumptionState = {
  verb: "ListRecords",
  metadataPrefix: "oai_dc",
  from: "2026-10-01",
  until: null,
  set: "cs:cs.CL",
  position: "2026-10-05T12:00:00.123456Z",
  id: "2610.00042",
  cursor: 100,
  completeListSize: 230,
  expiresAt: Date.parse("2026-11-03T12:00:00Z"),
};
const baseUrl = "http://quire.test";
const now = new Date("2026-11-02T12:00:00Z");

describe("resumption tokens", () => {
  it("round-trip the whole state and stay URL-safe", () => {
    const token = encodeResumptionToken(state, { baseUrl });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(decodeResumptionToken(token, { baseUrl, now })).toEqual({ ok: true, state });
  });

  it("refuse any change to payload or seal, and tokens of another deployment", () => {
    const token = encodeResumptionToken(state, { baseUrl });
    const [payload = "", seal = ""] = token.split(".");
    const edited = Buffer.from(
      Buffer.from(payload, "base64url").toString("utf8").replace("2610.00042", "2610.00001"),
    ).toString("base64url");
    for (const bad of [
      `${edited}.${seal}`,
      `${payload}.${seal.slice(0, -1)}${seal.endsWith("A") ? "B" : "A"}`,
      `${payload.slice(1)}.${seal}`,
    ]) {
      expect(decodeResumptionToken(bad, { baseUrl, now })).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
    expect(decodeResumptionToken(token, { baseUrl: "https://other.example", now }).ok).toBe(false);
    expect(decodeResumptionToken(token, { baseUrl, now, secret: "s3cret" }).ok).toBe(false);
    const secretToken = encodeResumptionToken(state, { baseUrl, secret: "s3cret" });
    expect(decodeResumptionToken(secretToken, { baseUrl, now, secret: "s3cret" }).ok).toBe(true);
  });

  it("carry no set for the whole repository, and still read version 1 tokens (no set)", () => {
    const whole = { ...state, set: null };
    const token = encodeResumptionToken(whole, { baseUrl });
    expect(decodeResumptionToken(token, { baseUrl, now })).toEqual({ ok: true, state: whole });
    // A version 1 token, sealed as the server sealed it before sets.
    const payload = Buffer.from(
      JSON.stringify([
        1,
        state.verb,
        state.metadataPrefix,
        state.from,
        state.until,
        state.position,
        state.id,
        state.cursor,
        state.completeListSize,
        state.expiresAt,
      ]),
    ).toString("base64url");
    const seal = createHmac("sha256", `quire-oai-resumption::${baseUrl}`)
      .update(payload)
      .digest()
      .subarray(0, 16)
      .toString("base64url");
    expect(decodeResumptionToken(`${payload}.${seal}`, { baseUrl, now })).toEqual({
      ok: true,
      state: whole,
    });
  });

  it("refuse garbage without throwing", () => {
    for (const bad of ["", ".", "x", "a.b", "🧪.🧪", `${"A".repeat(3000)}.${"A".repeat(22)}`]) {
      expect(decodeResumptionToken(bad, { baseUrl, now }).ok).toBe(false);
    }
  });

  it("expire after expiresAt", () => {
    const token = encodeResumptionToken(state, { baseUrl });
    expect(decodeResumptionToken(token, { baseUrl, now: new Date(state.expiresAt) }).ok).toBe(true);
    expect(decodeResumptionToken(token, { baseUrl, now: new Date(state.expiresAt + 1) })).toEqual({
      ok: false,
      reason: "expired",
    });
  });
});
