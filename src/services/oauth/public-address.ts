/**
 * @module Which IP addresses a server-side fetch may connect to: public unicast only. The one
 * list of special-purpose ranges (IANA's IPv4 and IPv6 special-purpose registries, and the
 * IPv6 forms that embed an IPv4 address, checked by what they embed), in one `BlockList`.
 */
import { BlockList, isIPv4 } from "node:net";
import { ipv6Bytes } from "../addresses.ts";

/**
 * Never fetched from: unspecified, "this network", private (RFC 1918), carrier-grade NAT,
 * loopback, link-local, IETF protocol assignments, documentation, 6to4 relay anycast,
 * benchmarking, multicast, reserved and limited broadcast.
 */
const IPV4_SPECIAL: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["255.255.255.255", 32],
];

/**
 * IPv6 ranges refused whatever follows the prefix: IPv4-compatible (deprecated, holds `::` and
 * `::1`), local-use NAT64, discard-only and dummy prefixes, IETF protocol assignments (Teredo,
 * benchmarking, ORCHID and the rest of 2001::/23), documentation (both), SRv6 SIDs, unique
 * local, link-local, site-local (deprecated, RFC 3879) and multicast. Everything outside
 * global unicast (2000::/3) is refused too, below, so an unlisted future assignment there
 * fails closed.
 */
const IPV6_SPECIAL: [string, number][] = [
  ["::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["100:0:0:1::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];

/** IPv6 forms that carry an IPv4 address: the connection reaches that IPv4 address. */
const IPV4_EMBEDDING: { net: string; prefix: number; at: number }[] = [
  // IPv4-mapped (RFC 4291) and IPv4-translated (RFC 2765): the last 32 bits.
  { net: "::ffff:0:0", prefix: 96, at: 12 },
  { net: "::ffff:0:0:0", prefix: 96, at: 12 },
  // NAT64 well-known prefix (RFC 6052): the last 32 bits.
  { net: "64:ff9b::", prefix: 96, at: 12 },
  // 6to4 (RFC 3056): the 32 bits after 2002::/16.
  { net: "2002::", prefix: 16, at: 2 },
];

const SPECIAL = new BlockList();
for (const [net, prefix] of IPV4_SPECIAL) SPECIAL.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of IPV6_SPECIAL) SPECIAL.addSubnet(net, prefix, "ipv6");

/** Outside 2000::/3 nothing is public unicast (the embedding forms are handled first). */
const NOT_GLOBAL_UNICAST = new BlockList();
NOT_GLOBAL_UNICAST.addSubnet("::", 3, "ipv6");
NOT_GLOBAL_UNICAST.addSubnet("4000::", 2, "ipv6");
NOT_GLOBAL_UNICAST.addSubnet("8000::", 1, "ipv6");

const EMBEDDINGS = IPV4_EMBEDDING.map(({ net, prefix, at }) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, "ipv6");
  return { list, at };
});

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * True when `address` (IPv4 or IPv6, brackets allowed) is a public unicast address: not in
 * any special-purpose range, and, for an IPv6 form embedding an IPv4 address, the embedded
 * address is public too. Anything that is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !SPECIAL.check(address, "ipv4");
  const bytes = ipv6Bytes(address);
  if (!bytes) return false;
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  for (const { list, at } of EMBEDDINGS) {
    if (list.check(bare, "ipv6")) return isPublicAddress(bytes.slice(at, at + 4).join("."));
  }
  return !SPECIAL.check(bare, "ipv6") && !NOT_GLOBAL_UNICAST.check(bare, "ipv6");
}

/** True for 127.0.0.0/8 and ::1 (and IPv4-mapped loopback), the addresses tests serve on. */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return LOOPBACK.check(address, "ipv4");
  const bytes = ipv6Bytes(address);
  if (!bytes) return false;
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = EMBEDDINGS[0];
  if (mapped?.list.check(bare, "ipv6")) return LOOPBACK.check(bytes.slice(12).join("."), "ipv4");
  return LOOPBACK.check(bare, "ipv6");
}
