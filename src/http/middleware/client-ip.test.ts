/** @module clientIpResolver: which address is the client, and when X-Forwarded-For is believed. */
import { describe, expect, it } from "vitest";
import { clientIpResolver } from "./client-ip.ts";

describe("clientIpResolver", () => {
  it("answers the peer and ignores X-Forwarded-For when no proxy is trusted", () => {
    const resolve = clientIpResolver([]);
    expect(resolve("192.0.2.10", "203.0.113.66")).toBe("192.0.2.10");
    expect(resolve("192.0.2.10", undefined)).toBe("192.0.2.10");
  });

  it("ignores X-Forwarded-For from an untrusted peer", () => {
    const resolve = clientIpResolver(["10.0.0.0/8", "192.0.2.1"]);
    expect(resolve("192.0.2.10", "203.0.113.66")).toBe("192.0.2.10");
    expect(resolve("11.0.0.1", "203.0.113.66, 10.0.0.1")).toBe("11.0.0.1");
    expect(resolve("unknown", "203.0.113.66")).toBe("unknown");
  });

  it("takes the forwarded client from a trusted peer, by address or subnet", () => {
    const resolve = clientIpResolver(["10.0.0.0/8", "192.0.2.1"]);
    expect(resolve("192.0.2.1", "198.51.100.7")).toBe("198.51.100.7");
    expect(resolve("10.20.30.40", " 198.51.100.7 ")).toBe("198.51.100.7");
    expect(resolve("10.20.30.40", undefined)).toBe("10.20.30.40");
  });

  it("walks multiple hops right to left and stops at the first untrusted one", () => {
    const resolve = clientIpResolver(["10.0.0.0/8"]);
    expect(resolve("10.0.0.1", "198.51.100.7, 10.0.0.2, 10.0.0.3")).toBe("198.51.100.7");
    // A client that prepends its own header cannot pick its address.
    expect(resolve("10.0.0.1", "203.0.113.66, 198.51.100.7, 10.0.0.2")).toBe("198.51.100.7");
    // Every hop trusted: the leftmost is the best we know.
    expect(resolve("10.0.0.1", "10.0.0.9, 10.0.0.2")).toBe("10.0.0.9");
  });

  it("skips entries that are not addresses", () => {
    const resolve = clientIpResolver(["10.0.0.0/8"]);
    expect(resolve("10.0.0.1", "198.51.100.7, unknown, , 10.0.0.2")).toBe("198.51.100.7");
    expect(resolve("10.0.0.1", "garbage")).toBe("10.0.0.1");
    expect(resolve("10.0.0.1", "198.51.100.7:4711")).toBe("10.0.0.1");
  });

  it("treats IPv4-mapped IPv6 addresses as the IPv4 address they carry", () => {
    const resolve = clientIpResolver(["10.0.0.0/8"]);
    expect(resolve("::ffff:10.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
    expect(resolve("::ffff:192.0.2.10", "203.0.113.66")).toBe("192.0.2.10");
    expect(resolve("10.0.0.1", "::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(resolve("10.0.0.1", "198.51.100.7, ::ffff:10.0.0.2")).toBe("198.51.100.7");
  });

  it("handles IPv6 proxies and clients", () => {
    const resolve = clientIpResolver(["fd00::/8", "2001:db8::1"]);
    expect(resolve("fd12::5", "2001:db8:ffff::42")).toBe("2001:db8:ffff::42");
    expect(resolve("2001:db8::1", "198.51.100.7, fd00::9")).toBe("198.51.100.7");
    expect(resolve("2001:db8::2", "198.51.100.7")).toBe("2001:db8::2");
  });
});
