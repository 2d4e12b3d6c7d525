export { get, jsonRequest, problemOf } from "./http.ts";
export { freePort, waitForHttp } from "./ports.ts";
export { startRedis, type TestRedis, uniquePrefix } from "./redis.ts";
