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
} from "./config/env.ts";
export { hasBody, isJsonMediaType, readBodyCapped, readJsonBody } from "./http/body.ts";
export { clientGuards, clientIpOf, UNKNOWN_CLIENT } from "./http/client.ts";
export {
  ipv6Words,
  normalizeIp,
  parseTrustedProxies,
  rateLimitKey,
  resolveClientIp,
  type TrustedProxies,
} from "./http/client-ip.ts";
export { type HealthCheck, HealthReport, healthRoutes, runChecks } from "./http/health.ts";
export { type Listener, type ListenOptions, listen, scopedFetch } from "./http/listen.ts";
export { peerAddressOf } from "./http/peer.ts";
export { isDatabaseUnavailable, platform, requestIdFor, toProblem } from "./http/platform.ts";
export {
  HttpProblem,
  invalidField,
  PROBLEM_CONTENT_TYPE,
  type ProblemEntry,
  problemCatalog,
  problemResponse,
  problemType,
  toProblemBody,
} from "./http/problem.ts";
export {
  createRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitPolicy,
  rateLimitHeaders,
} from "./http/rate-limit.ts";
export {
  RATE_LIMIT_EXTENSION,
  type RateLimitOptions,
  type RateLimitRule,
  rateLimits,
} from "./http/rate-limit-macro.ts";
export { exitOnStartupError, type ServeOptions, serve, startupFailureLine } from "./http/serve.ts";
export {
  createLogger,
  type Logger,
  type LogLevel,
  type LogSink,
  memorySink,
  stdoutSink,
} from "./observability/logger.ts";
export {
  Counter,
  createMetrics,
  DURATION_BUCKETS,
  Gauge,
  Histogram,
  type Metrics,
  routeLabel,
  serveMetrics,
} from "./observability/metrics.ts";
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
export { runService, type ServiceSpec, type Started } from "./run-service.ts";
export {
  createStore,
  memoryStore,
  redisStore,
  type SharedStore,
  StoreUnavailableError,
  type WindowHit,
} from "./store/index.ts";
