import { describe, expect, test } from "bun:test";
import { ConfigError } from "@platform/server";
import { loadEnv } from "../src/env.ts";

describe("configuration", () => {
  test("defaults: port 3004, 10 runs a minute, 16 waiting, 30 s per run, 3 attempts", () => {
    expect(loadEnv({})).toMatchObject({
      BENCH_PORT: 3004,
      BENCH_RATE_LIMIT: 10,
      BENCH_QUEUE_MAX: 16,
      BENCH_RUN_TIMEOUT_MS: 30_000,
      BENCH_MAX_ATTEMPTS: 3,
    });
    expect(loadEnv({}).REDIS_URL).toBeUndefined();
  });

  test("values are read from the environment", () => {
    const env = loadEnv({ BENCH_MAX_ATTEMPTS: "1", BENCH_QUEUE_MAX: "0", BENCH_RATE_LIMIT: "60" });
    expect(env).toMatchObject({ BENCH_MAX_ATTEMPTS: 1, BENCH_QUEUE_MAX: 0, BENCH_RATE_LIMIT: 60 });
  });

  test("bad values are reported by name, not guessed", () => {
    const bad: Record<string, string>[] = [
      { BENCH_MAX_ATTEMPTS: "0" },
      { BENCH_MAX_ATTEMPTS: "11" },
      { BENCH_MAX_ATTEMPTS: "two" },
      { BENCH_RATE_LIMIT: "0" },
      { BENCH_QUEUE_MAX: "-1" },
      { BENCH_RUN_TIMEOUT_MS: "10" },
      { BENCH_PORT: "70000" },
    ];
    for (const source of bad) {
      const [name = ""] = Object.keys(source);
      expect(() => loadEnv(source)).toThrow(ConfigError);
      expect(() => loadEnv(source)).toThrow(name);
    }
  });
});
