import { commonEnv, metricsPort, parseEnv, port, EnvType as T } from "@platform/server";

/** The site keeps no state of its own: no Redis, no database, only where to listen. */
export const WebEnv = T.Object({
  ...commonEnv,
  WEB_PORT: port(3005, "Port the site listens on."),
  WEB_METRICS_PORT: metricsPort(0),
});

export type WebEnv = typeof WebEnv.static;

export const loadEnv = (source: Record<string, string | undefined> = process.env) =>
  parseEnv(WebEnv, source);
