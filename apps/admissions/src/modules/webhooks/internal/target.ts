import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/*
 * Server-side request forgery: an admin's endpoint URL must not make the server call into its
 * own network (a metadata service, a database's HTTP port, the app itself). Checked when the
 * URL is saved and again before every delivery, on the addresses the name resolves to then (a
 * name can be re-pointed after it was saved). ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS lifts
 * both checks for development and tests (receivers on 127.0.0.1); production refuses it.
 */

/** Why a URL is refused as a webhook target, or null when it may be saved. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return "must be an https:// URL";
  }
  if (url.username || url.password) return "must not carry credentials";
  if (url.hash) return "must not have a #fragment";
  const host = bareHost(url.hostname);
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) {
    return "must not point at this machine";
  }
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return "must not point at a private, loopback or link-local address";
  }
  return null;
}

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, "").toLowerCase();

/**
 * Throws when the URL's host resolves to an address it must not reach. A gap remains: fetch
 * resolves the name again, so a name that answers differently within that moment (DNS
 * rebinding) is not caught; an egress proxy or firewall closes it (docs/security.md).
 */
export async function assertPublicTarget(raw: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = bareHost(new URL(raw).hostname);
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) throw new Error(`refused: ${host} resolves to ${blocked}`);
}

const V4_BLOCKED: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata 169.254.169.254)
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 protocol assignments
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xe0000000, 3], // multicast, reserved, broadcast
];

function v4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

/** Loopback, private, link-local, shared, multicast or reserved: anything but the internet. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const n = v4Number(address);
    return V4_BLOCKED.some(
      ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === base / 2 ** (32 - bits),
    );
  }
  const a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (hex) {
    const n = Number.parseInt(hex[1] ?? "0", 16) * 65_536 + Number.parseInt(hex[2] ?? "0", 16);
    return isPrivateAddress([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
  }
  return (
    a === "::" ||
    a === "::1" ||
    /^f[cd]/.test(a) || // unique local fc00::/7
    /^fe[89ab]/.test(a) || // link-local fe80::/10
    /^ff/.test(a) || // multicast
    a.startsWith("64:ff9b:") || // NAT64 embeds IPv4 of any kind
    a.startsWith("2001:db8:") // documentation
  );
}
