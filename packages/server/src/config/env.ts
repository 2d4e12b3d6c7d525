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

/** What a variable is for, in the words of the configuration tables (scripts/docs-tables.ts). */
type Described = { description: string };

/** One of a fixed set of strings. */
export const oneOf = <const V extends readonly string[]>(
  values: V,
  fallback: V[number],
  { description }: Described,
) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { default: fallback, description },
  ) as TUnion<TLiteral<V[number]>[]>;

/** `a,b , c` → ["a","b","c"]; used for list-valued variables such as TRUSTED_PROXIES. */
export const splitList = (value: string): string[] =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

export const port = (fallback: number, description: string) =>
  Type.Integer({ minimum: 1, maximum: 65535, default: fallback, description });

/** Where an app serves `/metrics`, apart from its API (0 turns it off). */
export const metricsPort = (fallback: number) =>
  Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: fallback,
    description:
      "Prometheus `/metrics` on a port of its own, never beside the API, so no public route reaches it; `0`: off. [docs/decisions.md § Metrics](docs/decisions.md#metrics).",
  });

const collectorUrl = (description: string) =>
  Type.Optional(Type.String({ pattern: "^https?://[^\\s]+$", description }));
const exportTimeout = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000, description }));
const compression = (description: string) =>
  Type.Optional(Type.Union([Type.Literal("gzip"), Type.Literal("none")], { description }));

/**
 * OpenTelemetry's own variable names (observability/tracing.ts), as its environment
 * specification defines them. Without an endpoint there is no tracing at all.
 */
export const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl(
    "Tracing: the OTLP/HTTP collector, e.g. `http://otel-collector:4318` (spans go to `…/v1/traces`). Unset: no tracing at all. [docs/decisions.md § Tracing](docs/decisions.md#tracing).",
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collectorUrl(
    "The full traces URL, when it is not `<endpoint>/v1/traces`; set alone, it turns tracing on too.",
  ),
  OTEL_EXPORTER_OTLP_HEADERS: Type.Optional(
    Type.String({
      description:
        "Headers sent with every export, `key=value` comma-separated (a collector's token).",
    }),
  ),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: Type.Optional(
    Type.String({
      description: "The same for traces only; added to (and over) `OTEL_EXPORTER_OTLP_HEADERS`.",
    }),
  ),
  OTEL_EXPORTER_OTLP_TIMEOUT: exportTimeout("Each export's deadline in ms; unset, 10 s."),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: exportTimeout(
    "The same for traces only (over `OTEL_EXPORTER_OTLP_TIMEOUT`).",
  ),
  OTEL_EXPORTER_OTLP_COMPRESSION: compression(
    "`gzip` compresses each export; unset or `none`, it is sent as it is.",
  ),
  OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: compression(
    "The same for traces only (over `OTEL_EXPORTER_OTLP_COMPRESSION`).",
  ),
  OTEL_SERVICE_NAME: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "`service.name` on the app's spans; unset: the app's own name (`gateway`, `admissions`, …).",
    }),
  ),
  OTEL_RESOURCE_ATTRIBUTES: Type.Optional(
    Type.String({
      description:
        "Resource attributes on every span, `key=value` comma-separated (`deployment.environment=prod`).",
    }),
  ),
  // 1 % by default: recording more costs the gateway more than its budget (docs/performance.md).
  OTEL_TRACES_SAMPLER_ARG: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.01,
    description:
      "Share of the traces starting at this app that are recorded; a caller's `traceparent` decision is always followed. `1` to see every request (development); the default keeps the gateway within its cost budget.",
  }),
  OTEL_BSP_SCHEDULE_DELAY: Type.Integer({
    minimum: 1,
    maximum: 600_000,
    default: 5_000,
    description:
      "Longest wait (ms) before recorded spans are sent; a full batch of 512 goes at once, and SIGTERM sends the rest.",
  }),
} as const;

export type TracingEnv = Static<TObject<typeof tracingEnv>>;

/** The site's address as its clients reach it: what the OpenAPI documents name as `servers`. */
const publicUrl = Type.Optional(
  Type.String({
    pattern: "^https?://[^/?#\\s]+/?$",
    description:
      "The site's public address (`https://admissions.example.org`), named as `servers` in the OpenAPI documents. Unset: the address each request came to, as trusted proxies' `X-Forwarded-Proto` and `X-Forwarded-Host` say.",
  }),
);

/** Variables every app reads; each app's env.ts spreads these into its own schema. */
export const commonEnv = {
  NODE_ENV: oneOf(["development", "production", "test"], "development", {
    description:
      "`production`: admissions refuses to start with development-only settings (the default JWT secret, no mail transport, private webhook targets, plain-http Stripe or S3) and `bun run seed` refuses to run.",
  }),
  LOG_LEVEL: oneOf(LOG_LEVELS, "info", {
    description: "`info` includes one access-log line per request.",
  }),
  HOST: Type.String({ default: "0.0.0.0", minLength: 1, description: "Interface to listen on." }),
  TRUSTED_PROXIES: Type.String({
    default: "loopback",
    description:
      "Peers whose `X-Forwarded-For` is believed: addresses, CIDR ranges, `loopback`, `private` or `none`, comma-separated (the gateway reads `GATEWAY_TRUSTED_PROXIES` instead).",
  }),
  PUBLIC_URL: publicUrl,
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    maximum: 600_000,
    default: 10_000,
    description:
      "Time in-flight requests get after SIGTERM or SIGINT before the process gives up on them.",
  }),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 0,
    description:
      "On SIGTERM, time spent still serving while readiness answers 503, so a balancer (the gateway's checks, a Kubernetes Service) stops sending new requests before the listener closes. `0`: close at once; SIGINT (Ctrl-C) never waits.",
  }),
  HTTP_PIPELINING: Type.Boolean({
    default: true,
    description:
      'On: pipelined HTTP/1.1 requests are answered in order (RFC 9112 §9.3.2), by node:http\'s listener, at more CPU per request. `false`: Bun.serve, cheaper, which closes a connection on which a request arrives before the previous answer, unanswered: only for an app whose every client is known not to pipeline (docs/decisions.md, "Pipelining").',
  }),
  ...tracingEnv,
} as const;

/** Shared state: absent means in-process memory. */
export const redisEnv = {
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: "^rediss?://",
      description:
        "Shared state (rate limits, sessions, the leaderboard, caches) in Redis, so replicas share it; unset: process memory.",
    }),
  ),
} as const;
