/**
 * @module IP addresses as bytes: the one parser both address rules use (which addresses a
 * server-side fetch may reach, services/oauth/public-address.ts; what a rate limit counts an
 * address under, services/ratelimit/keys.ts).
 */
import { isIPv6 } from "node:net";

/** The 16 bytes of an IPv6 address (with an optional trailing dotted quad), or null. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!isIPv6(bare)) return null;
  let text = bare;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad?.[1]) {
    const [a, b, c, d] = quad[1].split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}
