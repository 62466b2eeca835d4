/** @module rateLimitKeyOf and accountKeyOf: what a bucket counts under. */
import { describe, expect, it } from "vitest";
import { accountKeyOf, rateLimitKeyOf } from "./keys.ts";

describe("rateLimitKeyOf", () => {
  it("counts every address of one IPv6 /64 as that /64", () => {
    expect(rateLimitKeyOf("2001:db8:78::1")).toBe("2001:db8:78:0:0:0:0:0/64");
    expect(rateLimitKeyOf("2001:db8:78::c8")).toBe("2001:db8:78:0:0:0:0:0/64");
    expect(rateLimitKeyOf("2001:DB8:78:0:ffff:1:2:3")).toBe("2001:db8:78:0:0:0:0:0/64");
    expect(rateLimitKeyOf("2001:db8:78:1::1")).toBe("2001:db8:78:1:0:0:0:0/64");
    expect(rateLimitKeyOf("fe80::1%eth0")).toBe("fe80:0:0:0:0:0:0:0/64");
  });

  it("takes the configured prefix, to the bit", () => {
    expect(rateLimitKeyOf("2001:db8:78:ab::1", 48)).toBe("2001:db8:78:0:0:0:0:0/48");
    expect(rateLimitKeyOf("2001:db8:78:ab::1", 56)).toBe("2001:db8:78:0:0:0:0:0/56");
    expect(rateLimitKeyOf("2001:db8:78:1ab::1", 60)).toBe("2001:db8:78:1a0:0:0:0:0/60");
    expect(rateLimitKeyOf("2001:db8::7", 128)).toBe("2001:db8:0:0:0:0:0:7/128");
  });

  it("counts IPv4 and IPv4-mapped IPv6 as the IPv4 address", () => {
    expect(rateLimitKeyOf("192.0.2.1")).toBe("192.0.2.1");
    expect(rateLimitKeyOf("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(rateLimitKeyOf("::ffff:c000:201")).toBe("192.0.2.1");
  });

  it("leaves what is not an address alone", () => {
    expect(rateLimitKeyOf("k")).toBe("k");
    expect(rateLimitKeyOf("unknown")).toBe("unknown");
  });
});

describe("accountKeyOf", () => {
  it("is the SHA-256 of the normalised email, never the email", () => {
    const key = accountKeyOf(" Ada@Example.org ");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toBe(accountKeyOf("ada@example.org"));
    expect(key).not.toContain("ada");
  });
});
