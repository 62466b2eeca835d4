/** @module The client address: the socket's, or X-Forwarded-For from trusted proxies only. */
import { BlockList, isIP } from "node:net";

/**
 * Builds a resolver. X-Forwarded-For is read right to left, skipping trusted proxies, so a
 * client cannot spoof its address by sending the header itself: an untrusted peer's own
 * address is always the answer.
 */
export function clientIpResolver(
  trusted: string[],
): (peer: string, xff: string | undefined) => string {
  const list = new BlockList();
  for (const entry of trusted) {
    const [addr, bits] = entry.split("/");
    if (!addr) continue;
    const type = isIP(addr) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  const isTrusted = (ip: string) => {
    const clean = normalize(ip);
    const kind = isIP(clean);
    return kind !== 0 && list.check(clean, kind === 6 ? "ipv6" : "ipv4");
  };
  return (peer, xff) => {
    let current = normalize(peer);
    if (trusted.length === 0 || !isTrusted(current) || !xff) return current;
    const hops = xff
      .split(",")
      .map((h) => normalize(h.trim()))
      .filter((h) => isIP(h) !== 0);
    for (let i = hops.length - 1; i >= 0; i--) {
      current = hops[i] as string;
      if (!isTrusted(current)) return current;
    }
    return current;
  };
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so one client has one identity. */
function normalize(ip: string): string {
  return ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}
