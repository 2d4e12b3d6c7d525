import { describe, expect, test } from "bun:test";
import { ConfigError, createLogger, memorySink } from "@platform/server";
import { loadEnv } from "../src/env.ts";
import { defaultLimits, parseAllowedMissing, prepareHost } from "../src/sandbox/setup.ts";

describe("configuration", () => {
  test("defaults: port 3003, 60 runs a minute, no missing layer allowed", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      RUNNER_PORT: 3003,
      RUNNER_RATE_LIMIT: 60,
      RUNNER_POOL_SIZE: 4,
      RUNNER_MAX_CONCURRENCY: 8,
      RUNNER_QUEUE_SIZE: 16,
      RUNNER_MEMORY_MB: 256,
      RUNNER_ALLOW_MISSING_LAYERS: "",
      RUNNER_CLIENT_MAX_RUNS: 2,
      RUNNER_CLIENT_SANDBOX_MS: 30_000,
      RUNNER_CHECK_TIMEOUT_MS: 1_000,
    });
    expect(env.RUNNER_CHECKERS).toBeUndefined();
  });

  test("bad values are refused at start-up", () => {
    expect(() => loadEnv({ RUNNER_POOL_SIZE: "0" })).toThrow(ConfigError);
    expect(() => loadEnv({ RUNNER_RATE_LIMIT: "many" })).toThrow(ConfigError);
    expect(() => loadEnv({ RUNNER_CLIENT_MAX_RUNS: "0" })).toThrow(ConfigError);
    expect(() => loadEnv({ RUNNER_CLIENT_SANDBOX_MS: "10" })).toThrow(ConfigError);
    expect(() => loadEnv({ RUNNER_CHECK_TIMEOUT_MS: "50" })).toThrow(ConfigError);
    expect(() => loadEnv({ RUNNER_CHECKERS: "0" })).toThrow(ConfigError);
  });

  test("allowed missing layers: names, 'all', and nothing else", () => {
    expect([...parseAllowedMissing("")]).toEqual([]);
    expect([...parseAllowedMissing("seccomp, rlimits")].sort()).toEqual(["rlimits", "seccomp"]);
    expect(parseAllowedMissing("all").size).toBe(3);
    expect(() => parseAllowedMissing("static")).toThrow(ConfigError);
  });
});

describe("start-up with a kernel layer missing", () => {
  const logger = () => createLogger({ service: "runner", level: "silent", sink: memorySink() });

  test("refuses to start, naming the layer, unless it is allowed", async () => {
    const refused = prepareHost({
      limits: defaultLimits(128),
      allowMissing: new Set(),
      logger: logger(),
      bwrapPath: null,
    });
    await expect(refused).rejects.toThrow(/lacks sandbox layers: namespaces/);
  });

  test("starts without it when RUNNER_ALLOW_MISSING_LAYERS names it", async () => {
    const host = await prepareHost({
      limits: defaultLimits(128),
      allowMissing: new Set(["namespaces"]),
      logger: logger(),
      bwrapPath: null,
    });
    try {
      expect(host.kernel.namespaces.on).toBe(false);
      expect(host.kernel.seccomp.on).toBe(true);
      expect(host.kernel.rlimits.on).toBe(true);
    } finally {
      host.dispose();
    }
  });
});
