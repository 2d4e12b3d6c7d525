import { HttpProblem, healthRoutes, runChecks, type SharedStore } from "@platform/server";
import { Elysia, t } from "elysia";
import type { Db } from "../../db/client.ts";
import { problems } from "../../lib/openapi.ts";
import { enumOf } from "../../lib/schema.ts";

const StoreReport = t.Object({
  status: t.Literal("ok"),
  service: t.String(),
  store: enumOf(["memory", "redis"], {
    description: "memory: no Redis configured (one replica); redis: the shared store answered",
  }),
});

/**
 * Liveness, readiness (database and store) and the store probe the gateway and orchestrators
 * poll. Without REDIS_URL the store is process memory, which is always reachable.
 */
export const probes = ({ db, store }: { db: Db; store: SharedStore }) =>
  new Elysia({ name: "probes" })
    .use(
      healthRoutes("admissions", {
        database: () => db.ping(),
        store: () => store.ping(),
      }),
    )
    .get(
      "/health/redis/",
      async () => {
        const { healthy, report } = await runChecks({ store: () => store.ping() });
        if (!healthy) {
          throw new HttpProblem("NOT_READY", {
            detail: `The ${store.kind} store is unreachable`,
            extensions: { checks: report },
            headers: { "retry-after": "5" },
          });
        }
        return { status: "ok" as const, service: "admissions", store: store.kind };
      },
      {
        response: { 200: StoreReport, ...problems("NOT_READY") },
        detail: { tags: ["health"], summary: "Probe of the cache/session store" },
      },
    );
