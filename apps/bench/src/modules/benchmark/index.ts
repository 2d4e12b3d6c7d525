import {
  clientGuards,
  createRateLimiter,
  type Logger,
  rateLimits,
  type SharedStore,
  type TrustedProxies,
} from "@platform/server";
import { problemDeclarations } from "@platform/server/openapi";
import { Elysia } from "elysia";
import type { BenchmarkRunner } from "../../runner/runner.ts";
import { BENCH_PROBLEMS, BenchmarkRequest, BenchmarkResult } from "./model.ts";
import { runBenchmark } from "./service.ts";

export type BenchmarkDeps = {
  store: SharedStore;
  runner: BenchmarkRunner;
  logger: Logger;
  trustedProxies: TrustedProxies;
  /** Requests per minute per client IP. */
  runsPerMinute: number;
  now: () => number;
  /** Counts each answered run (metrics.ts), when metrics are on. */
  countRun?: (result: BenchmarkResult) => void;
};

const PATH = "/api/benchmark";
const problems = problemDeclarations(BENCH_PROBLEMS);

export const benchmark = (deps: BenchmarkDeps) => {
  const limit = createRateLimiter(
    deps.store,
    { name: "benchmark", limit: deps.runsPerMinute, windowMs: 60_000 },
    deps.now,
  );
  return new Elysia({ name: "benchmark", prefix: PATH })
    .use(clientGuards(deps.trustedProxies))
    .use(rateLimits({ trusted: deps.trustedProxies }))
    .post(
      "",
      async ({ body, request }) => {
        const result = await runBenchmark(deps, body.type, request.signal);
        deps.countRun?.(result);
        return result;
      },
      {
        body: BenchmarkRequest,
        rateLimit: { key: "ip", limiter: limit },
        response: {
          200: BenchmarkResult,
          ...problems("RATE_LIMITED", "SERVICE_UNAVAILABLE", "BENCHMARK_FAILED"),
        },
        detail: {
          tags: ["benchmark"],
          summary: "Run a fixed 10,000-iteration micro-benchmark and report its timing",
          description:
            "Runs one at a time, each in a fresh worker, warm-up excluded. executionTime is the " +
            "total of the timed iterations in microseconds; perIteration holds their statistics.",
        },
      },
    );
};
