import type { Server } from "bun";
import { Elysia } from "elysia";
import { resolveClientIp, type TrustedProxies } from "./client-ip.ts";
import { peerAddressOf } from "./peer.ts";

/** Requests handled in-process (app.handle) have no peer; they share one key. */
export const UNKNOWN_CLIENT = "unknown";

export function clientIpOf(
  request: Request,
  server: Server<unknown> | null | undefined,
  trusted: TrustedProxies,
): string {
  const peer = peerAddressOf(request, server);
  return resolveClientIp(peer, request.headers.get("x-forwarded-for"), trusted) ?? UNKNOWN_CLIENT;
}

/**
 * Who is calling, per decisions.md "Client IP": `clientIp` in every handler's context. Rate
 * limits are per route, with the `rateLimit` macro (rate-limit-macro.ts).
 */
export function clientGuards(trusted: TrustedProxies) {
  return new Elysia({ name: "client-guards", seed: trusted.spec }).derive(
    { as: "scoped" },
    ({ request, server }) => ({
      clientIp: clientIpOf(request, server, trusted),
    }),
  );
}
