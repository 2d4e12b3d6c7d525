import {
  clientGuards,
  createRateLimiter,
  rateLimitKey,
  rateLimits,
  type SharedStore,
  type TrustedProxies,
  UNKNOWN_CLIENT,
} from "@platform/server";
import { problemDeclarations } from "@platform/server/openapi";
import { Elysia } from "elysia";
import type { SandboxRunner } from "../../sandbox/runner.ts";
import { RUNNER_PROBLEMS, RunRequest, RunResult } from "./model.ts";
import { runCode } from "./service.ts";

export type RunDeps = {
  runner: SandboxRunner;
  store: SharedStore;
  trustedProxies: TrustedProxies;
  /** Runs per minute per client IP. */
  runsPerMinute: number;
  now: () => number;
  /** Counts each answered run's outcome (metrics.ts), when metrics are on. */
  countOutcome?: (result: RunResult) => void;
};

const PATH = "/api/run";
const problems = problemDeclarations(RUNNER_PROBLEMS);

export const run = (deps: RunDeps) => {
  const { runner, store, now } = deps;
  const runLimit = createRateLimiter(
    store,
    { name: "runner-run", limit: deps.runsPerMinute, windowMs: 60_000 },
    now,
  );
  return (
    new Elysia({ name: "run", prefix: PATH })
      .use(clientGuards(deps.trustedProxies))
      .use(rateLimits({ trusted: deps.trustedProxies }))
      // The fairness limits key a client as the rate limit does (an IPv6 client by its /64). A
      // request without an address is nobody in particular: it shares the limits of the others
      // like it, but never a sandbox kept for a client (kept.ts) or its cached verdicts.
      .post(
        "",
        async ({ body, clientIp }) => {
          const client = clientIp === UNKNOWN_CLIENT ? undefined : rateLimitKey(clientIp);
          const result = await runCode(runner, body, client);
          deps.countOutcome?.(result);
          return result;
        },
        {
          body: RunRequest,
          rateLimit: { key: "ip", limiter: runLimit },
          response: {
            200: RunResult,
            ...problems(
              "RATE_LIMITED",
              "CLIENT_RUNS_EXCEEDED",
              "SANDBOX_TIME_EXCEEDED",
              "RUNNER_BUSY",
              "SANDBOX_UNAVAILABLE",
            ),
          },
          detail: {
            tags: ["run"],
            summary:
              "Run a TypeScript snippet in the sandbox; blocked capabilities answer 200 with a SecurityError",
          },
        },
      )
  );
};
