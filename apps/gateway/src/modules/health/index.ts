import { HttpProblem } from "@platform/server";
import { Elysia, t } from "elysia";
import type { Pool } from "../balancer/service.ts";
import { GatewayHealth } from "./model.ts";
import { checkUpstreams } from "./service.ts";

export type HealthDeps = { pools: readonly Pool[]; probeTimeoutMs: number };

export const health = ({ pools, probeTimeoutMs }: HealthDeps) =>
  new Elysia({ name: "gateway-health", prefix: "/gateway" })
    // The gateway process itself: what a container healthcheck asks.
    .get("/live", () => ({ status: "ok" as const }), {
      response: t.Object({ status: t.Literal("ok") }),
    })
    // Every upstream's readiness, each replica asked now: 200 when every upstream has a replica
    // up, else a 503 problem listing each one. A replica down beside others up shows in its list.
    .get(
      "/health",
      async () => {
        const { healthy, upstreams } = await checkUpstreams(pools, probeTimeoutMs);
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
