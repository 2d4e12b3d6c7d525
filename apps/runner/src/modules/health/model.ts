import { JsonInteger } from "@platform/contracts";
import { HealthReport } from "@platform/server";
import { t } from "elysia";

export const LayerReport = t.Object({
  on: t.Boolean(),
  detail: t.String(),
});

/** The shared health shape plus every sandbox layer: on or off, and why. */
export const RunnerHealth = t.Composite([
  HealthReport,
  t.Object({
    layers: t.Record(t.String(), LayerReport),
    pool: t.Object({
      ready: JsonInteger(),
      starting: JsonInteger(),
      running: JsonInteger(),
      queued: JsonInteger(),
    }),
  }),
]);
export type RunnerHealth = typeof RunnerHealth.static;
