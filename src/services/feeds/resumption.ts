/** @module OAI-PMH resumption tokens: opaque, sealed, expiring keyset cursors. */
import { createHmac, timingSafeEqual } from "node:crypto";
import { PAPER_ID_PATTERN } from "../ids.ts";

/** Everything the next page needs; the token is the whole state, the server keeps none. */
export interface ResumptionState {
  verb: "ListIdentifiers" | "ListRecords";
  metadataPrefix: string;
  /** The original `from` / `until` arguments, verbatim (granularity is part of them). */
  from: string | null;
  until: string | null;
  /** The original `set` argument (a setSpec), or null for the whole repository. */
  set: string | null;
  /** Keyset position: the last record sent, at database precision. */
  position: string;
  id: string;
  /** Records sent before the next page: its `cursor` attribute. */
  cursor: number;
  completeListSize: number;
  /** Milliseconds since the epoch after which the token is refused. */
  expiresAt: number;
}

/** Version 2 carries the set; version 1 tokens (issued before sets) page the whole repository. */
const VERSION = 2;
const MAC_BYTES = 16;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,2000}\.[A-Za-z0-9_-]{22}$/;
const POSITION_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * The seal key. Every record is public and a token only moves a cursor inside the window
 * its own arguments allow, so a forged token grants nothing a plain request would not;
 * the seal is there so that a damaged or hand-edited token is refused
 * (`badResumptionToken`) instead of silently paging from the wrong place. A deployment
 * secret can be passed as `secret` when there is one.
 */
function sealKey(baseUrl: string, secret?: string): string {
  return `quire-oai-resumption:${secret ?? ""}:${baseUrl}`;
}

function mac(payload: string, key: string): Buffer {
  return createHmac("sha256", key).update(payload).digest().subarray(0, MAC_BYTES);
}

export function encodeResumptionToken(
  state: ResumptionState,
  options: { baseUrl: string; secret?: string },
): string {
  const payload = Buffer.from(
    JSON.stringify([
      VERSION,
      state.verb,
      state.metadataPrefix,
      state.from,
      state.until,
      state.position,
      state.id,
      state.cursor,
      state.completeListSize,
      state.expiresAt,
      state.set,
    ]),
    "utf8",
  ).toString("base64url");
  const seal = mac(payload, sealKey(options.baseUrl, options.secret)).toString("base64url");
  return `${payload}.${seal}`;
}

export type DecodeResult =
  | { ok: true; state: ResumptionState }
  | { ok: false; reason: "malformed" | "expired" };

/** Checks shape, seal and expiry; any failure is the protocol's `badResumptionToken`. */
export function decodeResumptionToken(
  token: string,
  options: { baseUrl: string; now: Date; secret?: string },
): DecodeResult {
  const malformed = { ok: false, reason: "malformed" } as const;
  if (!TOKEN_PATTERN.test(token)) return malformed;
  const [payload = "", seal = ""] = token.split(".");
  // Compare the canonical text, not decoded bytes: base64url decoders ignore the unused
  // low bits of the last character, so several seal strings would decode alike.
  const expected = Buffer.from(
    mac(payload, sealKey(options.baseUrl, options.secret)).toString("base64url"),
  );
  const given = Buffer.from(seal);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return malformed;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return malformed;
  }
  if (!Array.isArray(fields)) return malformed;
  const current = fields[0] === VERSION && fields.length === 11;
  if (!current && !(fields[0] === 1 && fields.length === 10)) return malformed;
  const [, verb, metadataPrefix, from, until, position, id, cursor, size, expiresAt, set = null] =
    fields;
  const isDate = (v: unknown) => v === null || typeof v === "string";
  const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  if (
    (verb !== "ListIdentifiers" && verb !== "ListRecords") ||
    typeof metadataPrefix !== "string" ||
    !isDate(from) ||
    !isDate(until) ||
    !(set === null || (typeof set === "string" && set.length > 0)) ||
    typeof position !== "string" ||
    !POSITION_PATTERN.test(position) ||
    typeof id !== "string" ||
    !PAPER_ID_PATTERN.test(id) ||
    !isCount(cursor) ||
    !isCount(size) ||
    !isCount(expiresAt)
  ) {
    return malformed;
  }
  if (options.now.getTime() > expiresAt) return { ok: false, reason: "expired" };
  return {
    ok: true,
    state: {
      verb,
      metadataPrefix,
      from,
      until,
      set,
      position,
      id,
      cursor,
      completeListSize: size,
      expiresAt,
    },
  };
}
