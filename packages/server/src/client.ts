import type { Server } from "bun";
import { Elysia } from "elysia";
import { rateLimitKey, resolveClientIp, type TrustedProxies } from "./client-ip.ts";
import { HttpProblem } from "./problem.ts";
import { type RateLimiter, rateLimitHeaders } from "./rate-limit.ts";

/** Requests handled in-process (app.handle) have no peer; they share one key. */
export const UNKNOWN_CLIENT = "unknown";

export function clientIpOf(
  request: Request,
  server: Server<unknown> | null | undefined,
  trusted: TrustedProxies,
): string {
  const peer = server?.requestIP(request)?.address;
  return resolveClientIp(peer, request.headers.get("x-forwarded-for"), trusted) ?? UNKNOWN_CLIENT;
}

/** One rate-limited route: the full path as the client sends it (trailing slash optional). */
export type RouteLimit = { method: string; path: string; limiter: RateLimiter };

/** Pathname without query string and trailing slash: `/api/run/?x=1` → `/api/run`. */
function routeKey(method: string, url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  let path = start === -1 ? "/" : url.slice(start, query === -1 ? undefined : query);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return `${method} ${path}`;
}

/**
 * Who is calling, per decisions.md "Client IP": `clientIp` in every handler's context, and per
 * route rate limits. A limit is checked when the request arrives, before its body is read, so
 * every answer on a limited route (400, 413, 415 and 422 included) counts against the quota and
 * carries the RateLimit headers; a refused request is answered 429 without its body being read.
 */
export function clientGuards(trusted: TrustedProxies, limits: readonly RouteLimit[] = []) {
  const byRoute = new Map(
    limits.map(({ method, path, limiter }) => [routeKey(method, `http://x${path}`), limiter]),
  );
  const seed = `${trusted.spec}|${[...byRoute.keys()].join(",")}`;
  const guards = new Elysia({ name: "client-guards", seed }).derive(
    { as: "scoped" },
    ({ request, server }) => ({
      clientIp: clientIpOf(request, server, trusted),
    }),
  );
  if (byRoute.size === 0) return guards;
  return guards.onRequest(async ({ request, server, set }) => {
    const limiter = byRoute.get(routeKey(request.method, request.url));
    if (!limiter) return;
    const decision = await limiter.check(rateLimitKey(clientIpOf(request, server, trusted)));
    const headers = rateLimitHeaders(limiter.policy, decision);
    Object.assign(set.headers, headers);
    if (!decision.allowed) {
      throw new HttpProblem("RATE_LIMITED", {
        detail: `Rate limit of ${limiter.policy.limit} requests per ${limiter.policy.windowMs / 1000} s exceeded; retry in ${headers["retry-after"]} s`,
        headers,
      });
    }
  });
}
