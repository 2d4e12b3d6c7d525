import { createLogger, parseTrustedProxies } from "@platform/server";
import { freePort } from "@platform/server/testing";
import type { Server } from "bun";
import { type AppDeps, createApp } from "../src/app.ts";
import type { Route, UpstreamName } from "../src/modules/proxy/model.ts";

export type Seen = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  peerPort: number;
};

/** A fake upstream on a real port that records what reached it; `handler` decides the answer. */
export function fakeUpstream(
  handler?: (request: Request, server: Server<unknown>) => Response | Promise<Response>,
) {
  const seen: Seen[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request, srv) {
      if (handler) return handler(request, srv);
      const body = await request.text();
      const record: Seen = {
        method: request.method,
        url: request.url.slice(request.url.indexOf("/", 8)),
        headers: Object.fromEntries(request.headers),
        body,
        peerPort: srv.requestIP(request)?.port ?? 0,
      };
      seen.push(record);
      return Response.json(record);
    },
  });
  return { server, seen, target: `http://127.0.0.1:${server.port}` };
}

/** A port with nothing listening: connections are refused. */
export const deadTarget = async () => `http://127.0.0.1:${await freePort()}`;

export const silent = createLogger({ service: "gateway", level: "silent" });

export function routeTo(
  upstream: UpstreamName,
  target: string,
  prefixes: string[],
  extra: Partial<Route> = {},
): Route {
  return { upstream, target, prefixes, timeoutMs: 2_000, maxBodyBytes: 1_024 * 1_024, ...extra };
}

/** The gateway on a real port (the peer address and streaming need a real socket). */
export async function startGateway(
  routes: Route[],
  trusted = "none",
  extra: Partial<AppDeps> = {},
) {
  const app = createApp({
    routes,
    trustedProxies: parseTrustedProxies(trusted),
    logger: silent,
    probeTimeoutMs: 300,
    ...extra,
  });
  const port = await freePort();
  app.listen({ port, hostname: "127.0.0.1", reusePort: false });
  return { app, base: `http://127.0.0.1:${port}`, stop: () => app.stop(true) };
}
