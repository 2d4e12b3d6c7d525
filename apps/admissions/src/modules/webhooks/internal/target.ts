import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { blockedRange } from "./address.ts";

/*
 * Server-side request forgery: an admin's endpoint URL must not make the server call into its
 * own network (a metadata service, a database's HTTP port, the app itself). The URL is checked
 * when it is saved; at every delivery its name is resolved once, every address it resolves to
 * is judged (address.ts), and the POST is sent to an address so judged, with the name as its
 * Host and TLS server name: a name that answers differently between the check and the
 * connection (DNS rebinding) cannot move the connection. ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS
 * lifts the judging (not the pinning) for development and tests; production refuses it.
 */

/** A host name without the dot that ends a fully qualified one ("localhost." is localhost). */
const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

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
  if (allowPrivate) return null;
  // The URL parser has already written any IPv4 form (0x7f.1, 2130706433, 127.1) dotted.
  const host = bareHost(url.hostname);
  if (host === "localhost" || host.endsWith(".localhost")) return "must not point at this machine";
  if (isIP(host) !== 0 && blockedRange(host) !== null) {
    return "must not point at a private, loopback or link-local address";
  }
  return null;
}

/** The addresses a name has now, in the order the system prefers them. */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true })).map((entry) => entry.address);

/** Where one attempt connects, and the name the receiver is asked for there. */
export type PinnedTarget = {
  /** The URL with its host replaced by the address that was judged. */
  url: string;
  /** Host header and TLS server name (SNI, the certificate's name): the URL's own host. */
  host: string;
  serverName: string | null;
};

/**
 * The addresses one delivery may connect to, each with the URL rewritten to it: the URL's
 * literal address, or every address its name resolves to now. Throws (the attempt fails) when
 * any of them is refused: a name that mixes public and private answers is not trusted.
 */
export async function pinTargets(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<PinnedTarget[]> {
  const url = new URL(raw);
  const host = bareHost(url.hostname);
  if (isIP(host) !== 0) {
    const range = allowPrivate ? null : blockedRange(host);
    if (range) throw new Error(`refused: ${host} is ${range}`);
    return [{ url: url.href, host: url.host, serverName: null }];
  }
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new Error(`refused: ${host} resolves to no address`);
  for (const address of allowPrivate ? [] : addresses) {
    const range = blockedRange(address);
    if (range) throw new Error(`refused: ${host} resolves to ${address}, ${range}`);
  }
  return addresses.map((address) => {
    const pinned = new URL(url.href);
    pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
    return { url: pinned.href, host: url.host, serverName: host };
  });
}
