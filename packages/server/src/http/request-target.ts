/**
 * Elysia 1.4.30 finds a request's path with `url.indexOf("/", 11)`: it assumes "http://" plus an
 * authority of at least 4 characters. A shorter Host and no port (nginx's `Host: <upstream>`,
 * a Kubernetes Service called `web` on port 80) made it route `/api/leaderboard` as
 * `/leaderboard`. Bun also hands over a relative URL ("/api/x") when the Host is missing
 * (HTTP/1.0), empty or not a host name, which Elysia misroutes past 11 characters of path and
 * `new URL()` refuses outright.
 *
 * Every request passes here (serve.ts), so the common case costs a character test and one
 * `indexOf` over the authority; only a URL that would be misrouted is rewritten.
 */

/** Where Elysia starts looking for the path's first "/". */
const ELYSIA_PATH_SEARCH_FROM = 11;

/** The authority a request without Host (HTTP/1.0) is served under. */
export const DEFAULT_AUTHORITY = "localhost";

/** Requests whose Host header was present but no host name (answered 400 by `platform()`). */
const invalidHost = new WeakSet<Request>();

export const hasInvalidHost = (request: Request): boolean => invalidHost.has(request);

export const markInvalidHost = (request: Request): void => {
  invalidHost.add(request);
};

/**
 * `url` written so that Elysia's search finds its path, naming the same URL: a missing port
 * becomes the scheme's default (":80", which URL parsing drops again) and a short port gets
 * leading zeros (":1" → ":01", the same number). `new URL(result).href` equals
 * `new URL(url).href`. A relative URL is made absolute under `authority`.
 */
export function routableUrl(url: string, authority = DEFAULT_AUTHORITY): string {
  if (url.charCodeAt(0) === 47) return routableUrl(`http://${authority}${url}`);
  // From 8, past "http://" and the first character of any host (and past "https:/").
  const pathStart = url.indexOf("/", 8);
  if (pathStart >= ELYSIA_PATH_SEARCH_FROM) return url;
  const authorityStart = url.indexOf("//") + 2;
  const end = pathStart === -1 ? url.length : pathStart;
  const missing = ELYSIA_PATH_SEARCH_FROM - end;
  // The authority is under four characters here, too short for an IPv6 literal with a colon
  // inside ("[::]" is four): a colon, if any, starts the port.
  const colon = url.indexOf(":", authorityStart);
  const rest = pathStart === -1 ? "/" : url.slice(end);
  if (colon !== -1 && colon < end) {
    return `${url.slice(0, colon + 1)}${"0".repeat(missing)}${url.slice(colon + 1, end)}${rest}`;
  }
  const defaultPort = url.startsWith("https:") ? ":443" : ":80";
  return `${url.slice(0, end)}${defaultPort}${rest}`;
}

/**
 * The request as Elysia can route it: the same object (the server knows its peer address by
 * it, and its signal and body are the client's), with `url` overridden when it would be
 * misrouted. A relative URL whose request carried a Host header is marked: the Host was empty
 * or not a host name, which RFC 9112 §3.2 answers with 400.
 */
export function routable(request: Request): Request {
  const url = request.url;
  if (url.charCodeAt(0) !== 47 && url.indexOf("/", 8) >= ELYSIA_PATH_SEARCH_FROM) return request;
  if (url.charCodeAt(0) === 47 && request.headers.has("host")) markInvalidHost(request);
  Object.defineProperty(request, "url", { value: routableUrl(url), enumerable: true });
  return request;
}
