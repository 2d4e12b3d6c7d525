import { isIP } from "node:net";
import { ipv6Words } from "@platform/server";

/*
 * Which addresses a webhook may be sent to: the internet's, and nothing of the server's own
 * networks. One judge for every address, the literal in a URL and each address a name
 * resolves to when a delivery is made (target.ts). The ranges are IANA's special-purpose
 * registries (RFC 6890 and its updates), the ones not globally reachable.
 *
 * An IPv6 address that carries an IPv4 address is judged by the IPv4 address inside: the
 * packets end up there (IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96, the NAT64 well-known prefix 64:ff9b::/96, 6to4 2002::/16, and Teredo
 * 2001::/32, whose server and client (stored inverted) both must be public). The local-use
 * NAT64 prefix 64:ff9b:1::/48 is refused whole: the operator chooses where in it the IPv4
 * address sits (RFC 8215), so what it reaches cannot be told from the address.
 */

const V4_RANGES: [string, number, number][] = [
  ["this network 0.0.0.0/8", 0x00000000, 8],
  ["private 10.0.0.0/8", 0x0a000000, 8],
  ["shared (carrier-grade NAT) 100.64.0.0/10", 0x64400000, 10],
  ["loopback 127.0.0.0/8", 0x7f000000, 8],
  ["link-local 169.254.0.0/16 (cloud metadata)", 0xa9fe0000, 16],
  ["private 172.16.0.0/12", 0xac100000, 12],
  ["IETF protocol assignments 192.0.0.0/24", 0xc0000000, 24],
  ["documentation 192.0.2.0/24", 0xc0000200, 24],
  ["6to4 relay anycast 192.88.99.0/24", 0xc0586300, 24],
  ["private 192.168.0.0/16", 0xc0a80000, 16],
  ["benchmarking 198.18.0.0/15", 0xc6120000, 15],
  ["documentation 198.51.100.0/24", 0xc6336400, 24],
  ["documentation 203.0.113.0/24", 0xcb007100, 24],
  ["multicast 224.0.0.0/4", 0xe0000000, 4],
  ["reserved 240.0.0.0/4 (and broadcast)", 0xf0000000, 4],
];

/** IPv6 ranges by their leading bits: [name, the first 16-bit groups, prefix length]. */
const V6_RANGES: [string, number[], number][] = [
  ["unique local fc00::/7", [0xfc00], 7],
  ["link-local fe80::/10", [0xfe80], 10],
  ["site-local fec0::/10 (deprecated)", [0xfec0], 10],
  ["multicast ff00::/8", [0xff00], 8],
  [
    "local-use NAT64 64:ff9b:1::/48 (where the IPv4 address sits is the operator's choice)",
    [0x64, 0xff9b, 1],
    48,
  ],
  ["discard-only 100::/64", [0x100, 0, 0, 0], 64],
  ["documentation 2001:db8::/32", [0x2001, 0xdb8], 32],
  ["IETF protocol assignments 2001::/23", [0x2001, 0], 23],
  ["documentation 3fff::/20", [0x3fff], 20],
];

const v4Number = (address: string) =>
  address.split(".").reduce((n, part) => n * 256 + Number(part), 0);

const inV4Range = (n: number, base: number, bits: number) =>
  Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

function inV6Range(words: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((words[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const v4Of = (high: number, low: number) =>
  [high >>> 8, high & 255, low >>> 8, low & 255].join(".");

/** The IPv4 addresses an IPv6 address carries, and the form that carries them. */
function embeddedV4(w: number[]): { form: string; inside: string[] } | null {
  const zero = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  const [, , g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = w;
  if (zero(0, 6)) return { form: "IPv4-compatible ::/96", inside: [v4Of(g6, g7)] };
  if (zero(0, 5) && g5 === 0xffff) return { form: "IPv4-mapped", inside: [v4Of(g6, g7)] };
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) {
    return { form: "IPv4-translated ::ffff:0:0:0/96", inside: [v4Of(g6, g7)] };
  }
  if (w[0] === 0x64 && w[1] === 0xff9b && zero(2, 6)) {
    return { form: "NAT64 64:ff9b::/96", inside: [v4Of(g6, g7)] };
  }
  if (w[0] === 0x2002) return { form: "6to4 2002::/16", inside: [v4Of(w[1] ?? 0, g2)] };
  if (w[0] === 0x2001 && w[1] === 0) {
    // The client's address is stored with every bit inverted (RFC 4380).
    return { form: "Teredo 2001::/32", inside: [v4Of(g2, g3), v4Of(g6 ^ 0xffff, g7 ^ 0xffff)] };
  }
  return null;
}

function blockedV6(address: string): string | null {
  const words = ipv6Words(address);
  if (words.every((word) => word === 0)) return "unspecified ::";
  if (words.slice(0, 7).every((word) => word === 0) && words[7] === 1) return "loopback ::1";
  const embedded = embeddedV4(words);
  if (embedded) {
    for (const v4 of embedded.inside) {
      const range = blockedRange(v4);
      if (range) return `${embedded.form} of ${v4}: ${range}`;
    }
    return null;
  }
  const named = V6_RANGES.find(([, prefix, bits]) => inV6Range(words, prefix, bits));
  if (named) return named[0];
  // Everything else outside global unicast is reserved by the IETF (RFC 4291).
  return inV6Range(words, [0x2000], 3) ? null : "not global unicast (outside 2000::/3)";
}

/**
 * Why a webhook may not be sent to `address` (the range it is in), or null when it is a
 * public address. Dotted-quad IPv4 and IPv6 in any textual form (compressed, upper case, a
 * dotted tail, a zone id); anything else is refused, as what cannot be judged cannot pass.
 */
export function blockedRange(address: string): string | null {
  const bare = address.trim().toLowerCase().replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) {
    const n = v4Number(bare);
    return V4_RANGES.find(([, base, bits]) => inV4Range(n, base, bits))?.[0] ?? null;
  }
  if (family === 6) return blockedV6(bare);
  return "not an IP address";
}
