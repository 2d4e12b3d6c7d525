import {
  type Static,
  type TLiteral,
  type TObject,
  type TSchema,
  type TUnion,
  Type,
} from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { LOG_LEVELS } from "../observability/logger.ts";

/** A variable that is wrong, why, and the value it had (`undefined`: not set). */
export type VariableProblem = { variable: string; problem: string; got?: unknown };

/**
 * Configuration that cannot run: each bad variable named with its problem (and the value it
 * had), or one `variable` for a cause found later (a database that does not answer).
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly variables: readonly VariableProblem[];

  constructor(message: string, variables: readonly VariableProblem[] = [], options?: ErrorOptions) {
    super(message, options);
    this.variables = variables;
  }
}

/** TypeBox's message for a value, in words a person setting the variable can act on. */
function problemOf(schema: TSchema | undefined, message: string): string {
  const literals = schema && "anyOf" in schema ? (schema.anyOf as TSchema[]) : [];
  const values = literals.map((option) => option.const).filter((v) => v !== undefined);
  if (values.length > 0 && values.length === literals.length) {
    return `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return message;
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
  // Value.Default fills in what it is given: a copy, so `raw` keeps only what was set.
  const value = Value.Convert(schema, Value.Default(schema, { ...raw }));
  const seen = new Map<string, VariableProblem>();
  for (const e of Value.Errors(schema, value)) {
    const variable = e.path.replace(/^\//, "").split("/")[0] || "(root)";
    // The first problem of a variable says it; a union's later ones repeat it in parts.
    if (seen.has(variable)) continue;
    const problem = problemOf(schema.properties[variable], e.message);
    seen.set(variable, { variable, problem, got: raw[variable] });
  }
  if (seen.size > 0) throw configErrorOf([...seen.values()]);
  return value as Static<S>;
}

/** One ConfigError for these problems, its message a line per variable. */
export function configErrorOf(variables: readonly VariableProblem[]): ConfigError {
  const lines = variables.map(
    ({ variable, problem, got }) =>
      `  ${variable}: ${problem}${got === undefined ? " (not set)" : ` (got ${JSON.stringify(got)})`}`,
  );
  return new ConfigError(`Invalid configuration:\n${lines.join("\n")}`, variables);
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
