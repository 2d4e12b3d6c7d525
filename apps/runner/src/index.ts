import { RUN_OUTPUT_MAX_BYTES } from "@platform/contracts";
import { createStore, parseTrustedProxies, runService } from "@platform/server";
import packageJson from "../package.json";
import { createApp } from "./app.ts";
import { loadEnv } from "./env.ts";
import { startReaper } from "./sandbox/processes.ts";
import { createSandboxRunner, unavailableRunner } from "./sandbox/runner.ts";
import { defaultLimits, parseAllowedMissing, prepareHost } from "./sandbox/setup.ts";

// As a container's pid 1, orphaned processes are the runner's to reap.
const stopReaper = startReaper();

await runService({
  name: "runner",
  version: packageJson.version,
  loadEnv,
  ports: (env) => ({ port: env.RUNNER_PORT, metricsPort: env.RUNNER_METRICS_PORT }),
  async start({ env, logger, metrics }) {
    const limits = defaultLimits(env.RUNNER_MEMORY_MB);
    const allowMissing = parseAllowedMissing(env.RUNNER_ALLOW_MISSING_LAYERS);
    const host = await prepareHost({ limits, allowMissing, logger });
    const store = createStore({ redisUrl: env.REDIS_URL, prefix: "runner:" });
    const layers = {
      static: true,
      lockdown: true,
      seccomp: host.kernel.seccomp.on,
      namespaces: host.kernel.namespaces.on,
      rlimits: host.kernel.rlimits.on,
    };
    const runner = host.unavailable
      ? unavailableRunner(layers, host.unavailable)
      : createSandboxRunner({
          layers,
          limits,
          poolSize: env.RUNNER_POOL_SIZE,
          runsPerSandbox: env.RUNNER_SANDBOX_RUNS,
          sandboxIdleMs: env.RUNNER_SANDBOX_IDLE_MS,
          maxConcurrency: env.RUNNER_MAX_CONCURRENCY,
          queueSize: env.RUNNER_QUEUE_SIZE,
          perClientMaxRuns: env.RUNNER_CLIENT_MAX_RUNS,
          clientSandboxMsPerMinute: env.RUNNER_CLIENT_SANDBOX_MS,
          checkers: env.RUNNER_CHECKERS ?? env.RUNNER_MAX_CONCURRENCY,
          checkTimeoutMs: env.RUNNER_CHECK_TIMEOUT_MS,
          maxOutputBytes: RUN_OUTPUT_MAX_BYTES,
          acquireTimeoutMs: 5_000,
          bunPath: host.bunPath,
          bwrapPath: host.bwrapPath,
          harnessDir: host.harnessDir,
          libraries: host.libraries,
          workRoot: host.workRoot,
          workFolder: host.workFolder,
          logger,
        });
    logger.info("starting", { store: store.kind, pool: env.RUNNER_POOL_SIZE });
    const app = createApp({
      metrics,
      runner,
      kernel: host.kernel,
      store,
      logger,
      trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
      publicUrl: env.PUBLIC_URL,
      runsPerMinute: env.RUNNER_RATE_LIMIT,
    });
    return {
      app,
      maxRequestBodySize: 1024 * 1024,
      onShutdown: async () => {
        stopReaper();
        await runner.close();
        host.dispose();
        await store.close();
      },
    };
  },
});
