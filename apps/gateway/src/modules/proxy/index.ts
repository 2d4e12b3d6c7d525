import { HttpProblem, peerAddressOf, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import type { Pool } from "../balancer/service.ts";
import type { Route } from "./model.ts";
import { matchRoute } from "./routes.ts";
import { forward } from "./service.ts";

export type ProxyDeps = {
  routes: Route[];
  /** Each route's replicas (createApp makes one pool per route). */
  pools: ReadonlyMap<Route, Pool>;
  trustedProxies: TrustedProxies;
};

/** Path and query of a request URL, without parsing the whole URL. */
function pathAndQuery(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start === -1 ? "/" : url.slice(start);
}

/** Everything not served by the gateway itself goes to the upstream that owns the path. */
export const proxy = ({ routes, pools, trustedProxies }: ProxyDeps) =>
  new Elysia({ name: "proxy" }).all(
    "/*",
    ({ request, server, set }) => {
      const path = pathAndQuery(request.url);
      const route = matchRoute(routes, path);
      const pool = route && pools.get(route);
      if (!pool) {
        throw new HttpProblem("NOT_FOUND", {
          detail: `No service at ${request.method} ${path.split("?")[0]}`,
        });
      }
      return forward(request, pool, path, {
        peer: peerAddressOf(request, server),
        trusted: trustedProxies,
        requestId: String(set.headers["x-request-id"]),
      });
    },
    // The body is streamed to the upstream, never parsed here.
    { parse: "none", detail: { hide: true } },
  );
