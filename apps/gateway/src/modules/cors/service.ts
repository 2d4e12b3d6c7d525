/**
 * CORS for a front end on another origin (the spec's `{frontend_url}`): only origins listed in
 * GATEWAY_CORS_ORIGINS, each exactly (scheme, host and port), ever get CORS headers, always with
 * credentials (the session cookie) and never `*`. Preflights are answered here, never forwarded:
 * the apps need not know about CORS at all.
 */

/** What a cross-origin script may send besides the CORS-safelisted headers. */
export const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "idempotency-key",
  "if-match",
  "if-none-match",
  "x-request-id",
];
/** What a cross-origin script may read besides the CORS-safelisted response headers. */
export const EXPOSED_HEADERS = [
  "etag",
  "location",
  "ratelimit",
  "ratelimit-policy",
  "retry-after",
  "x-request-id",
];
export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
/** How long a browser may reuse a preflight's answer. */
export const PREFLIGHT_MAX_AGE_S = 600;

/** `https://app.example.org, http://localhost:5173` → a set of exact origins. */
export function parseOrigins(list: string): Set<string> {
  const origins = new Set<string>();
  for (const item of list.split(",")) {
    const trimmed = item.trim();
    if (trimmed === "") continue;
    const url = new URL(trimmed);
    if (url.origin !== trimmed.replace(/\/$/, "")) {
      throw new Error(`GATEWAY_CORS_ORIGINS: "${trimmed}" is not an origin (scheme://host[:port])`);
    }
    origins.add(url.origin);
  }
  return origins;
}

/** The headers an allowed origin's response carries (none for any other origin). */
export function corsHeaders(origin: string | null, allowed: ReadonlySet<string>) {
  if (origin === null || !allowed.has(origin)) return undefined;
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
  };
}

/** The extra headers of a preflight's answer for an allowed origin. */
export function preflightHeaders() {
  return {
    "access-control-allow-methods": ALLOWED_METHODS.join(", "),
    "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
    "access-control-max-age": String(PREFLIGHT_MAX_AGE_S),
  };
}
