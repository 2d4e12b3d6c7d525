export { get, jsonRequest, problemOf } from "./http.ts";
export { metricValue } from "./metrics.ts";
export { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp.ts";
export { freePort, freePorts, waitForHttp } from "./ports.ts";
export { startRedis, type TestRedis, testStore, uniquePrefix } from "./redis.ts";
