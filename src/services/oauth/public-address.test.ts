/** @module The SSRF address check: IANA special-purpose ranges and IPv4-embedding IPv6 forms. */
import { describe, expect, it } from "vitest";
import { ipv6Bytes } from "../addresses.ts";
import { isLoopbackAddress, isPublicAddress } from "./public-address.ts";

describe("isPublicAddress", () => {
  it("refuses the four IPv6 forms issue 28 connected to", () => {
    for (const address of ["::ffff:0:7f00:1", "::7f00:1", "::a9fe:a9fe", "fec0::1"]) {
      expect(isPublicAddress(address), address).toBe(false);
      expect(isPublicAddress(`[${address}]`), address).toBe(false);
    }
  });

  it("refuses every special-purpose IPv4 range", () => {
    for (const address of [
      "0.1.2.3",
      "10.0.0.1",
      "100.64.0.1",
      "100.127.255.255",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.88.99.1",
      "192.168.1.1",
      "198.18.0.1",
      "198.19.255.255",
      "198.51.100.7",
      "203.0.113.9",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("refuses special-purpose IPv6 ranges, and IPv4 embedded in IPv6 when that is not public", () => {
    for (const address of [
      "::",
      "::1",
      "::127.0.0.1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:0:10.0.0.1",
      "::ffff:0:a9fe:a9fe",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::1.2.3.4",
      "2002:7f00:1::1",
      "2002:c0a8:101::",
      "100::1",
      "100:0:0:1::1",
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:2::1",
      "2001:10::1",
      "2001:20::1",
      "2001:db8::1",
      "3fff::1",
      "5f00::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "fec0::1",
      "feff::1",
      "ff02::1",
      "4000::1",
      "::2:3:4",
      "not-an-ip",
      "",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("takes public unicast addresses, embedded ones included", () => {
    for (const address of [
      "93.184.216.34",
      "8.8.8.8",
      "2606:4700:4700::1111",
      "2a00:1450:4001:82b::200e",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe("isLoopbackAddress and ipv6Bytes", () => {
  it("knows loopback in its three spellings, and parses IPv6 with a dotted quad", () => {
    expect(isLoopbackAddress("127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("::1")).toBe(true);
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("::ffff:0:7f00:1")).toBe(false);
    expect(isLoopbackAddress("10.0.0.1")).toBe(false);
    expect([...(ipv6Bytes("::ffff:1.2.3.4") ?? [])].slice(10)).toEqual([255, 255, 1, 2, 3, 4]);
    expect([...(ipv6Bytes("2001:db8::1") ?? [])]).toEqual([
      0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    ]);
    expect(ipv6Bytes("1.2.3.4")).toBeNull();
  });
});
