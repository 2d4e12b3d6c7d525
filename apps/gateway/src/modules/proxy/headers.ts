import type { TrustedProxies } from "@platform/server";

/** RFC 9110 §7.6.1: meaningful for one connection only, never forwarded. */
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** Removes hop-by-hop fields, including any the Connection header names. */
function stripHopByHop(headers: Headers): Headers {
  const listed = headers.get("connection");
  if (listed) for (const name of listed.split(",")) headers.delete(name.trim());
  for (const name of HOP_BY_HOP) headers.delete(name);
  return headers;
}

export type ForwardedFor = {
  /** The address of the connection the request arrived on. */
  peer: string | undefined;
  trusted: TrustedProxies;
  requestId: string;
};

/**
 * Turns the client's request headers into the upstream's, in place (the incoming request is
 * not used again, and a copy per request is measurable at proxy rates). X-Forwarded-* from the
 * client are believed only when the peer is a trusted proxy (then the peer is appended to the
 * chain); otherwise they are replaced, so a client cannot choose the address the services
 * rate-limit and audit by.
 */
export function toUpstreamRequestHeaders(headers: Headers, who: ForwardedFor): Headers {
  const chain = headers.get("x-forwarded-for");
  stripHopByHop(headers);
  const host = headers.get("host");
  headers.delete("host");
  const peer = who.peer ?? "unknown";
  if (who.peer && who.trusted.has(who.peer)) {
    headers.set("x-forwarded-for", chain ? `${chain}, ${peer}` : peer);
    if (!headers.has("x-forwarded-proto")) headers.set("x-forwarded-proto", "http");
    if (!headers.has("x-forwarded-host") && host) headers.set("x-forwarded-host", host);
  } else {
    headers.set("x-forwarded-for", peer);
    headers.set("x-forwarded-proto", "http");
    if (host) headers.set("x-forwarded-host", host);
    else headers.delete("x-forwarded-host");
    headers.delete("forwarded");
  }
  headers.set("x-request-id", who.requestId);
  return headers;
}

/** The upstream's response headers for the client, in place: minus hop-by-hop, plus our id. */
export function toClientResponseHeaders(headers: Headers, requestId: string): void {
  stripHopByHop(headers);
  headers.set("x-request-id", requestId);
}
