import { type Static, type TLiteral, type TObject, type TUnion, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { LOG_LEVELS } from "./logger.ts";

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses environment variables against a TypeBox object: defaults applied, strings converted
 * ("3000" → 3000), every bad variable reported at once with the value it had.
 * Empty strings count as unset, so `FOO=` in a shell falls back to the default.
 */
export function parseEnv<S extends TObject>(
  schema: S,
  source: Record<string, string | undefined>,
): Static<S> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const value = Value.Convert(schema, Value.Default(schema, raw));
  const problems = [...Value.Errors(schema, value)].map((e) => {
    const name = e.path.replace(/^\//, "") || "(root)";
    const got = name in raw ? ` (got ${JSON.stringify(raw[name])})` : " (not set)";
    return `  ${name}: ${e.message}${got}`;
  });
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${[...new Set(problems)].join("\n")}`);
  }
  return value as Static<S>;
}

/**
 * Environment schemas use plain TypeBox (`Type`), not Elysia's `t`: Elysia's numeric types also
 * accept numeric strings unchecked, which would let PORT=70000 through.
 */
export { Type as EnvType } from "@sinclair/typebox";

/** One of a fixed set of strings. */
export const oneOf = <const V extends readonly string[]>(values: V, fallback: V[number]) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { default: fallback },
  ) as TUnion<TLiteral<V[number]>[]>;

/** `a,b , c` → ["a","b","c"]; used for list-valued variables such as TRUSTED_PROXIES. */
export const splitList = (value: string): string[] =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

export const port = (fallback: number) =>
  Type.Integer({ minimum: 1, maximum: 65535, default: fallback });

/** Where an app serves `/metrics`, apart from its API (0 turns it off). */
export const metricsPort = (fallback: number) =>
  Type.Integer({ minimum: 0, maximum: 65535, default: fallback });

const collectorUrl = Type.Optional(Type.String({ pattern: "^https?://[^\\s]+$" }));
const exportTimeout = Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 }));
const compression = Type.Optional(Type.Union([Type.Literal("gzip"), Type.Literal("none")]));

/**
 * OpenTelemetry's own variable names (observability/tracing.ts), as its environment
 * specification defines them. Without an endpoint there is no tracing at all.
 */
export const tracingEnv = {
  /** OTLP/HTTP collector, e.g. http://otel-collector:4318 (traces go to …/v1/traces). */
  OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
  /** The full traces URL, when it is not `<endpoint>/v1/traces`. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collectorUrl,
  /** Headers sent with every export, `key=value` comma-separated (a collector's token). */
  OTEL_EXPORTER_OTLP_HEADERS: Type.Optional(Type.String()),
  /** The same for traces only; added to (and over) the above. */
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: Type.Optional(Type.String()),
  /** Each export's deadline in ms; unset, 10 s. */
  OTEL_EXPORTER_OTLP_TIMEOUT: exportTimeout,
  /** The same for traces only. */
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: exportTimeout,
  /** `gzip` compresses each export; unset or `none`, it is sent as it is. */
  OTEL_EXPORTER_OTLP_COMPRESSION: compression,
  /** The same for traces only. */
  OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: compression,
  /** Unset: the app's own name (gateway, admissions, …). */
  OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  /** Resource attributes on every span, `key=value` comma-separated (`deployment.environment=prod`). */
  OTEL_RESOURCE_ATTRIBUTES: Type.Optional(Type.String()),
  /**
   * Share of the traces that start here recorded (0–1); a caller's decision is always followed.
   * 1 % by default: recording more costs the gateway more than its budget (docs/performance.md).
   */
  OTEL_TRACES_SAMPLER_ARG: Type.Number({ minimum: 0, maximum: 1, default: 0.01 }),
  /** Longest wait before a batch of spans is sent (a full batch of 512 goes at once). */
  OTEL_BSP_SCHEDULE_DELAY: Type.Integer({ minimum: 1, maximum: 600_000, default: 5_000 }),
} as const;

export type TracingEnv = Static<TObject<typeof tracingEnv>>;

/** Variables every app reads; each app's env.ts spreads these into its own schema. */
export const commonEnv = {
  NODE_ENV: oneOf(["development", "production", "test"], "development"),
  LOG_LEVEL: oneOf(LOG_LEVELS, "info"),
  HOST: Type.String({ default: "0.0.0.0", minLength: 1 }),
  /** Peers whose X-Forwarded-For is believed: comma-separated addresses or CIDR ranges. */
  TRUSTED_PROXIES: Type.String({ default: "loopback" }),
  /** Time allowed to in-flight requests after SIGTERM before the process gives up on them. */
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
  /**
   * On SIGTERM, time spent still serving while readiness answers 503, so a balancer (the
   * gateway's checks, a Kubernetes Service) stops sending new requests before the listener
   * closes. 0: close at once (Ctrl-C, SIGINT, never waits).
   */
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 0 }),
  /**
   * On (default): pipelined HTTP/1.1 requests are answered in order (RFC 9112 §9.3.2), by
   * node:http's listener, at more CPU per request. Off: Bun.serve, cheaper, which closes a
   * connection on which a request arrives before the previous answer, unanswered: only for an
   * app whose every client is known not to pipeline (docs/decisions.md "Pipelining").
   */
  HTTP_PIPELINING: Type.Boolean({ default: true }),
  ...tracingEnv,
} as const;

/** Shared state: absent means in-process memory. */
export const redisEnv = {
  REDIS_URL: Type.Optional(Type.String({ pattern: "^rediss?://" })),
} as const;
