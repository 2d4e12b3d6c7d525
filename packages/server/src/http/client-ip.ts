import { BlockList, isIP } from "node:net";
import { ConfigError, splitList } from "../config/env.ts";

/** Named groups usable in TRUSTED_PROXIES besides plain addresses and CIDR ranges. */
const GROUPS: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
  none: [],
};

export type TrustedProxies = { readonly spec: string; has(ip: string): boolean };

/** "loopback, 10.1.0.0/16, 2001:db8::1" → a matcher; a bad entry is a start-up error. */
export function parseTrustedProxies(spec: string): TrustedProxies {
  const list = new BlockList();
  let count = 0;
  for (const entry of splitList(spec).flatMap((part) => GROUPS[part.toLowerCase()] ?? [part])) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new ConfigError(
        `TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range or one of ${Object.keys(GROUPS).join(", ")}`,
      );
    }
    list.addSubnet(address, prefix, family === 6 ? "ipv6" : "ipv4");
    count++;
  }
  return {
    spec,
    has: (ip) => {
      if (count === 0) return false;
      const family = isIP(ip);
      return family !== 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4");
    },
  };
}

/** Canonical form for comparison and keys: IPv4-mapped IPv6 becomes IPv4, zone ids go. */
export function normalizeIp(ip: string): string {
  const bare = ip.trim().toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  return mapped?.[1] ?? bare;
}

/**
 * The client's address. The peer is the client unless it is a trusted proxy; then
 * X-Forwarded-For is read right to left and the first hop that is not itself a trusted proxy is
 * the client. A malformed hop ends the walk: nothing left of it can be believed.
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | null,
  trusted: TrustedProxies,
): string | undefined {
  if (!peer) return undefined;
  let client = normalizeIp(peer);
  if (!forwardedFor || !trusted.has(client)) return client;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i] ?? "");
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!trusted.has(hop)) return hop;
  }
  return client;
}

/**
 * The unit a rate limit counts: an IPv4 address, or an IPv6 /64 (one subscriber's usual
 * allocation, so rotating through its 2^64 addresses does not reset the count).
 */
export function rateLimitKey(ip: string): string {
  const normalized = normalizeIp(ip);
  if (isIP(normalized) !== 6) return normalized;
  return `${ipv6Groups(normalized).slice(0, 4).join(":")}::/64`;
}

/**
 * The eight 16-bit groups of an IPv6 address as numbers, in any of its textual forms
 * (compressed, upper case, a dotted IPv4 tail); the caller has checked it is one (isIP 6) and
 * taken off any zone id.
 */
export function ipv6Words(ip: string): number[] {
  let address = ip;
  const tail = address.slice(address.lastIndexOf(":") + 1);
  if (tail.includes(".")) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
    address = `${address.slice(0, address.lastIndexOf(":") + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const zeros = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}

/** The eight 16-bit groups of an IPv6 address, in lowercase hex without leading zeros. */
function ipv6Groups(ip: string): string[] {
  return ipv6Words(ip).map((word) => word.toString(16));
}
