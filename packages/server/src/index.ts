export { hasBody, isJsonMediaType, readBodyCapped, readJsonBody } from "./body.ts";
export { clientGuards, clientIpOf, UNKNOWN_CLIENT } from "./client.ts";
export {
  ipv6Words,
  normalizeIp,
  parseTrustedProxies,
  rateLimitKey,
  resolveClientIp,
  type TrustedProxies,
} from "./client-ip.ts";
export {
  ConfigError,
  commonEnv,
  configErrorOf,
  EnvType,
  metricsPort,
  oneOf,
  parseEnv,
  port,
  redisEnv,
  splitList,
  type TracingEnv,
  tracingEnv,
  type VariableProblem,
} from "./env.ts";
export { type HealthCheck, HealthReport, healthRoutes, runChecks } from "./health.ts";
export { isDatabaseUnavailable, platform, requestIdFor, toProblem } from "./http.ts";
export { type Listener, type ListenOptions, listen, scopedFetch } from "./listen.ts";
export {
  createLogger,
  type Logger,
  type LogLevel,
  type LogSink,
  memorySink,
  stdoutSink,
} from "./logger.ts";
export {
  Counter,
  createMetrics,
  DURATION_BUCKETS,
  Gauge,
  Histogram,
  type Metrics,
  routeLabel,
  serveMetrics,
} from "./metrics.ts";
export { ObservationQueue } from "./observability/observation-queue.ts";
export { currentScope, type RequestScope, runInScope } from "./observability/request-scope.ts";
export {
  type Attributes,
  type ClientSpan,
  endClientSpan,
  errorType,
  type Span,
  SpanKind,
  startClientSpan,
} from "./observability/spans.ts";
export {
  injectTraceContext,
  type SpanOptions,
  startTracing,
  stopTracing,
  tracesUrl,
  tracingEnabled,
  withSpan,
} from "./observability/tracing.ts";
export { peerAddressOf } from "./peer.ts";
export {
  HttpProblem,
  invalidField,
  PROBLEM_CONTENT_TYPE,
  type ProblemEntry,
  problemCatalog,
  problemResponse,
  problemType,
  toProblemBody,
} from "./problem.ts";
export {
  createRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitPolicy,
  rateLimitHeaders,
} from "./rate-limit.ts";
export {
  RATE_LIMIT_EXTENSION,
  type RateLimitOptions,
  type RateLimitRule,
  rateLimits,
} from "./rate-limit-macro.ts";
export { runService, type ServiceSpec, type Started } from "./run-service.ts";
export { exitOnStartupError, type ServeOptions, serve, startupFailureLine } from "./serve.ts";
export {
  createStore,
  memoryStore,
  redisStore,
  type SharedStore,
  StoreUnavailableError,
  type WindowHit,
} from "./store/index.ts";
