import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, createLogger, memorySink, parseTrustedProxies } from "@platform/server";
import { get, problemOf, testStore } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { loadEnv } from "../src/env.ts";
import {
  CHECKER_FILE,
  HARNESS_BUNDLE,
  HARNESS_BYTECODE_FILE,
  HARNESS_FILE,
  SANDBOX_FILES_DIR,
  SECCOMP_FILE,
  SUPERVISOR_FILE,
} from "../src/sandbox/harness.ts";
import { KERNEL_FILE } from "../src/sandbox/protocol.ts";
import { unavailableRunner } from "../src/sandbox/runner.ts";
import { defaultLimits, parseAllowedMissing, prepareHost } from "../src/sandbox/setup.ts";
import { ALL_LAYERS, FULL_KERNEL, runRequest, testHarness } from "./support.ts";

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

  test("starts, but runs no program: the reason names the layer and the fix", async () => {
    const host = await prepareHost({
      limits: defaultLimits(128),
      allowMissing: new Set(),
      logger: logger(),
      bwrapPath: null,
    });
    try {
      expect(host.unavailable).toContain("lacks sandbox layers: namespaces");
      expect(host.unavailable).toContain("apt-get install bubblewrap");
      expect(host.unavailable).toContain("RUNNER_ALLOW_MISSING_LAYERS=namespaces");
    } finally {
      host.dispose();
    }
  });

  test("such a runner answers 503 SANDBOX_UNAVAILABLE with the reason, and is not ready", async () => {
    const reason =
      "the host lacks sandbox layers: namespaces (bwrap (bubblewrap) is not installed)";
    const app = createApp({
      runner: unavailableRunner(ALL_LAYERS, reason),
      kernel: FULL_KERNEL,
      store: testStore("runner"),
      logger: logger(),
      trustedProxies: parseTrustedProxies("loopback"),
      runsPerMinute: 60,
    });
    const refused = await app.handle(runRequest({ code: "console.log(1)" }));
    expect(refused.status).toBe(503);
    const problem = await problemOf(refused);
    expect(problem.code).toBe("SANDBOX_UNAVAILABLE");
    expect(problem.detail).toBe(`The runner cannot run programs: ${reason}`);
    const ready = await app.handle(get("/health/ready"));
    expect(ready.status).toBe(503);
    expect((await problemOf(ready)).detail).toContain("bubblewrap");
    expect((await app.handle(get("/health/live"))).status).toBe(200);
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
      expect(host.unavailable).toBeNull();
      expect(host.kernel.seccomp.on).toBe(true);
      expect(host.kernel.rlimits.on).toBe(true);
    } finally {
      host.dispose();
    }
  });
});

describe("the built harness (harness.ts)", () => {
  test("the sandbox's folder holds the entry, the strict CommonJS harness, its bytecode and the supervisor; nothing else", async () => {
    const dir = await testHarness();
    const sandboxFiles = join(dir, SANDBOX_FILES_DIR);
    expect(readdirSync(sandboxFiles).toSorted()).toEqual(
      [HARNESS_FILE, HARNESS_BUNDLE, HARNESS_BYTECODE_FILE, SUPERVISOR_FILE].toSorted(),
    );
    // The installer, the filter and the checker stay beside it, never mounted.
    for (const file of [KERNEL_FILE, SECCOMP_FILE, CHECKER_FILE]) {
      expect(existsSync(join(dir, file))).toBe(true);
    }
    const [pragma, wrapper] = readFileSync(join(sandboxFiles, HARNESS_BUNDLE), "utf8").split("\n");
    // Bun loads the bytecode only for a file that says it has some.
    expect(pragma).toBe("// @bun @bytecode @bun-cjs");
    // CommonJS is sloppy unless told: the harness's first statement makes it strict.
    expect(wrapper).toStartWith(
      '(function(exports, require, module, __filename, __dirname) {"use strict";',
    );
    expect(statSync(join(sandboxFiles, HARNESS_BYTECODE_FILE)).size).toBeGreaterThan(1024);
  });
});
