import { describe, expect, it } from "vitest";
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  PASSWORD_MIN,
  passwordProblem,
  SCRYPT_PARAMS,
  verifyPassword,
} from "./password.ts";

describe("password hashing (scrypt)", () => {
  it("stores scrypt with its parameters, a random salt, and verifies only the same password", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    const { N, r, p } = SCRYPT_PARAMS;
    expect(a).toMatch(
      new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`),
    );
    expect(a).not.toBe(b);
    expect(a).not.toContain("horse");
    expect(await verifyPassword("correct horse battery staple", a)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", a)).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it("normalises Unicode (NFKC) so the same password typed two ways matches", async () => {
    const composed = "contraseña segura 1";
    const decomposed = "contrasen\u0303a segura 1";
    expect(composed).not.toBe(decomposed);
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
  });

  it("refuses malformed or foreign hashes without throwing, and flags old parameters", async () => {
    for (const bad of [
      "",
      "plain",
      "scrypt$3$8$1$c2FsdA$aGFzaA",
      "bcrypt$2b$10$x",
      "scrypt$32768$8$3$$",
    ]) {
      expect(await verifyPassword("whatever password", bad)).toBe(false);
      expect(needsRehash(bad)).toBe(true);
    }
    expect(needsRehash("scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA")).toBe(true);
  });

  it("checks length in code points, not UTF-16 units or bytes", () => {
    expect(passwordProblem("a".repeat(PASSWORD_MIN - 1))).toContain("at least");
    expect(passwordProblem("a".repeat(PASSWORD_MIN))).toBeNull();
    expect(passwordProblem("🔑".repeat(PASSWORD_MIN - 1))).toContain("at least");
    expect(passwordProblem("x".repeat(257))).toContain("at most");
  });

  it("has one dummy hash for unknown accounts that no password matches", async () => {
    const dummy = await dummyPasswordHash();
    expect(await dummyPasswordHash()).toBe(dummy);
    expect(await verifyPassword("", dummy)).toBe(false);
  });
});
