export { get, jsonRequest, problemOf } from "./http.ts";
export { metricValue } from "./metrics.ts";
export { freePort, waitForHttp } from "./ports.ts";
export { startRedis, type TestRedis, testStore, uniquePrefix } from "./redis.ts";
