export { hasBody, isJsonMediaType, readBodyCapped, readJsonBody } from "./body.ts";
export { clientGuards, clientIpOf, UNKNOWN_CLIENT } from "./client.ts";
export {
  normalizeIp,
  parseTrustedProxies,
  rateLimitKey,
  resolveClientIp,
  type TrustedProxies,
} from "./client-ip.ts";
export {
  ConfigError,
  commonEnv,
  EnvType,
  metricsPort,
  oneOf,
  parseEnv,
  port,
  redisEnv,
  splitList,
  type TracingEnv,
  tracingEnv,
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
export { ObservationQueue, type Tallied, TalliedHistogram } from "./observation-queue.ts";
export { peerAddressOf } from "./peer.ts";
export {
  HttpProblem,
  invalidField,
  PROBLEM_CONTENT_TYPE,
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
export { currentScope, type RequestScope, runInScope } from "./request-scope.ts";
export { exitOnStartupError, type ServeOptions, serve } from "./serve.ts";
export {
  type ClientSpan,
  endClientSpan,
  errorType,
  startClientSpan,
} from "./span-records.ts";
export {
  createStore,
  memoryStore,
  redisStore,
  type SharedStore,
  StoreUnavailableError,
  type WindowHit,
} from "./store/index.ts";
export {
  injectTraceContext,
  type Span,
  SpanKind,
  type SpanOptions,
  startTracing,
  stopTracing,
  tracesUrl,
  tracingEnabled,
  withSpan,
} from "./tracing.ts";
