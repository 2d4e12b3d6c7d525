export { expectedByHost, SHORT_HOSTS, statusesByHost } from "./hosts.ts";
export { get, jsonRequest, problemOf } from "./http.ts";
export { metricValue } from "./metrics.ts";
export { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp.ts";
export { pipelined } from "./pipelining.ts";
export { freePort, freePorts, waitForHttp } from "./ports.ts";
export { exchange, type RawResponse, rawRequest } from "./raw-http.ts";
export { startRedis, type TestRedis, testStore, uniquePrefix } from "./redis.ts";
