import { HttpProblem } from "@platform/server";
import { problemDeclarations } from "@platform/server/openapi";
import { Elysia, t } from "elysia";
import type { Pool } from "../balancer/service.ts";
import { GatewayHealth, UPSTREAM_UNHEALTHY } from "./model.ts";
import { checkUpstreams } from "./service.ts";

const tags = ["gateway"];
const problems = problemDeclarations({ UPSTREAM_UNHEALTHY });

export type HealthDeps = { pools: readonly Pool[]; probeTimeoutMs: number };

export const health = ({ pools, probeTimeoutMs }: HealthDeps) =>
  new Elysia({ name: "gateway-health", prefix: "/gateway" })
    // The gateway process itself: what a container healthcheck asks.
    .get("/live", () => ({ status: "ok" as const }), {
      response: t.Object({ status: t.Literal("ok") }),
      detail: { tags, summary: "The gateway's own liveness (what a container healthcheck asks)" },
    })
    // Every upstream's readiness, each replica asked now: 200 when every upstream has a replica
    // up, else a 503 problem listing each one. A replica down beside others up shows in its list.
    .get(
      "/health",
      async () => {
        const { healthy, upstreams } = await checkUpstreams(pools, probeTimeoutMs);
        if (!healthy) {
          const down = Object.entries(upstreams).filter(([, health]) => health.status === "down");
          throw new HttpProblem(UPSTREAM_UNHEALTHY, {
            detail: `Not ready: ${down.map(([name]) => name).join(", ")}`,
            extensions: { upstreams },
            headers: { "retry-after": "5" },
          });
        }
        return { status: "ok" as const, upstreams };
      },
      {
        response: { 200: GatewayHealth, ...problems("UPSTREAM_UNHEALTHY") },
        detail: {
          tags,
          summary: "Every upstream's readiness, each replica asked now (503 while one has none up)",
        },
      },
    );
