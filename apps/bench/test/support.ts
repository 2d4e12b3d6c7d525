import type { SharedStore } from "@platform/server";
import { createLogger, listen, parseTrustedProxies } from "@platform/server";
import { jsonRequest, testStore } from "@platform/server/testing";
import { type AppDeps, createApp } from "../src/app.ts";
import { BENCHMARK_ITERATIONS, WARMUP_ITERATIONS } from "../src/modules/benchmark/model.ts";
import {
  type BenchmarkRunner,
  createBenchmarkRunner,
  type RunnerOptions,
} from "../src/runner/runner.ts";

export const silentLogger = () => createLogger({ service: "bench", level: "silent" });

/** The runner the app starts with, with overrides for the case under test. */
export const realRunner = (opts: Partial<RunnerOptions> = {}): BenchmarkRunner =>
  createBenchmarkRunner({
    iterations: BENCHMARK_ITERATIONS,
    warmupIterations: WARMUP_ITERATIONS,
    timeoutMs: 30_000,
    maxWaiting: 16,
    maxAttempts: 3,
    ...opts,
  });

export type TestApp = {
  app: ReturnType<typeof createApp>;
  runner: BenchmarkRunner;
  store: SharedStore;
  close(): Promise<void>;
};

/** The app as index.ts builds it: default limit, loopback trusted, a real worker runner. */
export function benchApp(overrides: Partial<AppDeps> = {}): TestApp {
  const deps: AppDeps = {
    store: overrides.store ?? testStore("bench"),
    runner: overrides.runner ?? realRunner(),
    logger: silentLogger(),
    trustedProxies: parseTrustedProxies("loopback"),
    runsPerMinute: 10,
    ...overrides,
  };
  return {
    app: createApp(deps),
    runner: deps.runner,
    store: deps.store,
    async close() {
      deps.runner.close();
      await deps.store.close();
    },
  };
}

export const benchmarkRequest = (body: unknown, headers: Record<string, string> = {}) =>
  jsonRequest("/api/benchmark", body, { headers });

/** Listens on a free loopback port, so requests have a real peer address. */
/** The app on a real port as serve() listens: Bun.serve, or the pipelining listener. */
export async function listening(bench: TestApp, opts: { pipelining?: boolean } = {}) {
  const listener = await listen(bench.app, { port: 0, hostname: "127.0.0.1", ...opts });
  const base = `http://127.0.0.1:${listener.port}`;
  return {
    base,
    post: (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/api/benchmark`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    async close() {
      await listener.stop(true);
      await bench.close();
    },
  };
}
