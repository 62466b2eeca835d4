/** @module Bearer parsing: what an Authorization header may hold, and what a refusal says (pure). */
import { describe, expect, it } from "vitest";
import { Unauthorized } from "../errors.ts";
import { parseBearer } from "./authenticate.ts";

/** A key of this server's shape: `<prefix>_sk_` and 43 base62 characters. */
const keyOf = (prefix: string) => `${prefix}_sk_${"a1B2c3D4e5".repeat(4)}f6G`;
const KEY = keyOf("quire");

function refusal(header: string | undefined): Unauthorized {
  try {
    parseBearer(header, "quire");
  } catch (error) {
    expect(error).toBeInstanceOf(Unauthorized);
    return error as Unauthorized;
  }
  throw new Error(`accepted ${JSON.stringify(header)}`);
}

describe("parseBearer", () => {
  it("returns the key of a well-formed header, scheme in any case, spaces before the key", () => {
    for (const header of [
      `Bearer ${KEY}`,
      `bearer ${KEY}`,
      `BeArEr    ${KEY}`,
      ` Bearer ${KEY} `,
    ]) {
      expect(parseBearer(header, "quire")).toBe(KEY);
    }
  });

  it.each([
    ["missing", undefined, /needs an agent key/, undefined],
    ["empty", "", /empty/, "invalid_request"],
    ["the scheme only", "Bearer", /no key after/, "invalid_request"],
    ["no scheme", KEY, /no scheme/, "invalid_request"],
    ["Basic", "Basic abc", /other than Bearer/, undefined],
    ["a comma list", `Bearer ${KEY},x`, /more than one value/, "invalid_request"],
    ["a tab", `Bearer\t${KEY}`, /authentication scheme/, "invalid_request"],
    ["a non-token scheme", `Bea(rer ${KEY}`, /authentication scheme/, "invalid_request"],
    [
      "a foreign token",
      "Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      /quire_sk_/,
      "invalid_token",
    ],
    ["a short secret", "Bearer quire_sk_abc", /43/, "invalid_token"],
  ])("refuses %s, saying what is wrong", (_name, header, says, challenge) => {
    const error = refusal(header);
    expect(error.message).toMatch(says);
    expect(error.challenge).toBe(challenge);
  });

  it("never puts the header's value in its message", () => {
    for (const header of [`Token ${KEY}`, `Bearer ${KEY}x`, KEY, `Bearer ${KEY} ${KEY}`]) {
      expect(refusal(header).message).not.toContain(KEY.slice(9));
    }
  });

  it("follows the configured prefix", () => {
    const own = keyOf("acme");
    expect(parseBearer(`Bearer ${own}`, "acme")).toBe(own);
    expect(() => parseBearer(`Bearer ${KEY}`, "acme")).toThrow(/acme_sk_/);
  });
});
