import { BENCHMARK_TYPES } from "@platform/contracts/benchmark";
import { createStore, parseTrustedProxies, runService } from "@platform/server";
import packageJson from "../package.json";
import { createApp } from "./app.ts";
import { loadEnv } from "./env.ts";
import { BENCHMARK_ITERATIONS, WARMUP_ITERATIONS } from "./modules/benchmark/model.ts";
import { createBenchmarkRunner } from "./runner/runner.ts";

await runService({
  name: "bench",
  version: packageJson.version,
  loadEnv,
  ports: (env) => ({ port: env.BENCH_PORT, metricsPort: env.BENCH_METRICS_PORT }),
  async start({ env, logger, metrics }) {
    const store = createStore({ redisUrl: env.REDIS_URL, prefix: "bench:" });
    const runner = createBenchmarkRunner({
      iterations: BENCHMARK_ITERATIONS,
      warmupIterations: WARMUP_ITERATIONS,
      timeoutMs: env.BENCH_RUN_TIMEOUT_MS,
      maxWaiting: env.BENCH_QUEUE_MAX,
      maxAttempts: env.BENCH_MAX_ATTEMPTS,
    });
    logger.info("starting", { store: store.kind, runsPerMinute: env.BENCH_RATE_LIMIT });
    // A fresh process runs its first benchmarks slower (memory it has not touched yet: measured
    // 8.7, 7.8, then 6.6 µs per array iteration). Two untimed runs of each type before listening
    // give the first client the conditions of the tenth. About 2 s of start-up.
    for (const type of BENCHMARK_TYPES) for (let i = 0; i < 2; i++) await runner.run(type);
    logger.info("warmed up", { runsPerType: 2 });
    const app = createApp({
      metrics,
      store,
      runner,
      logger,
      trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
      publicUrl: env.PUBLIC_URL,
      runsPerMinute: env.BENCH_RATE_LIMIT,
    });
    return {
      app,
      // Bun cuts off anything this large outright; below it the app answers a problem+json 413.
      maxRequestBodySize: 1024 * 1024,
      onShutdown: async () => {
        runner.close();
        await store.close();
      },
    };
  },
});
