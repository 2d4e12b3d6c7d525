import { HttpProblem } from "@platform/server";
import { Elysia, t } from "elysia";
import type { Route } from "../proxy/model.ts";
import { GatewayHealth } from "./model.ts";
import { checkUpstreams } from "./service.ts";

export type HealthDeps = { routes: Route[]; probeTimeoutMs?: number };

export const health = ({ routes, probeTimeoutMs = 2_000 }: HealthDeps) =>
  new Elysia({ name: "gateway-health", prefix: "/gateway" })
    // The gateway process itself: what a container healthcheck asks.
    .get("/live", () => ({ status: "ok" as const }), {
      response: t.Object({ status: t.Literal("ok") }),
    })
    // Every upstream's readiness: 200 when all are up, else a 503 problem listing each one.
    .get(
      "/health",
      async () => {
        const { healthy, upstreams } = await checkUpstreams(routes, probeTimeoutMs);
        if (!healthy) {
          const down = Object.entries(upstreams).filter(([, health]) => health.status === "down");
          throw new HttpProblem(
            { code: "UPSTREAM_UNHEALTHY", status: 503, title: "Upstream unhealthy" },
            {
              detail: `Not ready: ${down.map(([name]) => name).join(", ")}`,
              extensions: { upstreams },
              headers: { "retry-after": "5" },
            },
          );
        }
        return { status: "ok" as const, upstreams };
      },
      { response: GatewayHealth },
    );
