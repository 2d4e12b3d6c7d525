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

/**
 * Who is calling, per decisions.md "Client IP": `clientIp` on every route, and a `rateLimit`
 * macro switched on per route. The limit is checked in the transform phase, before body
 * validation, so invalid requests count against the quota like any other.
 */
export function clientGuards(trusted: TrustedProxies) {
  return new Elysia({ name: "client-guards", seed: trusted.spec })
    .derive({ as: "scoped" }, ({ request, server }) => ({
      clientIp: clientIpOf(request, server, trusted),
    }))
    .macro({
      rateLimit: (limiter: RateLimiter) => ({
        async transform({ request, server, set }) {
          const key = rateLimitKey(clientIpOf(request, server, trusted));
          const decision = await limiter.check(key);
          const headers = rateLimitHeaders(limiter.policy, decision);
          Object.assign(set.headers, headers);
          if (!decision.allowed) {
            throw new HttpProblem("RATE_LIMITED", {
              detail: `Rate limit of ${limiter.policy.limit} requests per ${limiter.policy.windowMs / 1000} s exceeded; retry in ${headers["retry-after"]} s`,
              headers,
            });
          }
        },
      }),
    });
}
