/**
 * The real gateway app (`createApp`) with one route, its upstream `fetch` answered in-process
 * with the leaderboard's ten entries: what the in-process benchmarks measure is the gateway's
 * own work, not the network's or an upstream's.
 */
import { type AppDeps, createApp } from "../../apps/gateway/src/app.ts";
import { parseTrustedProxies } from "../../packages/server/src/index.ts";

export function stubbedGateway(deps: Pick<AppDeps, "logger" | "metrics">) {
  const body = JSON.stringify(
    Array.from({ length: 10 }, (_, i) => ({ player: `p${i}`, score: i })),
  );
  globalThis.fetch = (async () =>
    new Response(body, {
      headers: { "content-type": "application/json" },
    })) as unknown as typeof fetch;
  return createApp({
    routes: [
      {
        upstream: "leaderboard",
        target: "http://127.0.0.1:9",
        prefixes: ["/api/leaderboard"],
        timeoutMs: 5_000,
        maxBodyBytes: 1024 * 1024,
      },
    ],
    trustedProxies: parseTrustedProxies("none"),
    ...deps,
  });
}
