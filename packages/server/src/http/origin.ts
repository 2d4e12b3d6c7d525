import type { TrustedProxies } from "./client-ip.ts";
import { normalizeIp } from "./client-ip.ts";

/** A host name or address with an optional port: what X-Forwarded-Host may hold. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first (the client's own) entry of a comma-separated forwarded header, if any. */
const firstOf = (value: string | null) => value?.split(",")[0]?.trim().toLowerCase() || undefined;

/**
 * The origin the caller used, for the `servers` of an OpenAPI document (what "Try it out"
 * calls) and any other absolute URL an answer gives. In order: the configured public URL; else
 * `X-Forwarded-Proto` and `X-Forwarded-Host` when the connection comes from a trusted proxy (a
 * TLS terminator in front says `https`; the gateway says the Host the client sent), each only if
 * it is well formed; else the request's own URL (a direct call). A client that is not a trusted
 * proxy cannot choose the address the document points others at.
 */
export function callerOrigin(
  request: Request,
  peer: string | undefined,
  trusted: TrustedProxies,
  publicUrl?: string,
): string {
  if (publicUrl) return new URL(publicUrl).origin;
  const own = new URL(request.url);
  if (!peer || !trusted.has(normalizeIp(peer))) return own.origin;
  const proto = firstOf(request.headers.get("x-forwarded-proto"));
  const host = firstOf(request.headers.get("x-forwarded-host"));
  const scheme = proto === "https" || proto === "http" ? proto : own.protocol.slice(0, -1);
  const authority = host && HOST.test(host) ? host : own.host;
  // Through the URL parser, which drops a port that is the scheme's default (https://a:443).
  return new URL(`${scheme}://${authority}`).origin;
}
