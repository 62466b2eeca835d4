/**
 * @module What a bucket counts under: one rule for every store. An address is counted by
 * its network (IPv6 by its /64, or the configured prefix; IPv4-mapped IPv6 as the IPv4
 * address), and an account (a normalised email) only as its SHA-256, so no store ever holds
 * an email.
 */
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { ipv6Bytes } from "../addresses.ts";

/** The IPv6 prefix an address is counted by unless configured (RATE_LIMIT_IPV6_PREFIX). */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * The rate-limit key of a client address. An IPv6 host is handed a whole /64 (RFC 6177), and
 * one client can pick any address in it, so counting per address would multiply every limit
 * by 2^64: an IPv6 address counts as its network, `2001:db8:78::/64`. `::ffff:192.0.2.1`
 * counts as `192.0.2.1`. Anything that is not an address (a test's fixed key) is unchanged.
 */
export function rateLimitKeyOf(ip: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  const address = ip.trim();
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind !== 6) return ip;
  const bytes = ipv6Bytes(address);
  if (!bytes) return ip;
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  }
  const bits = Math.max(0, Math.min(128, Math.trunc(ipv6Prefix)));
  for (let i = 0; i < 16; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    bytes[i] = (bytes[i] as number) & ((0xff00 >> keep) & 0xff);
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) {
    groups.push((((bytes[i] as number) << 8) | (bytes[i + 1] as number)).toString(16));
  }
  return `${groups.join(":")}/${bits}`;
}

/** The key an account is counted under: its normalised email's SHA-256, never the email. */
export function accountKeyOf(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}
