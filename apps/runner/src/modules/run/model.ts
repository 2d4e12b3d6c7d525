import { RunRequest, RunResult } from "@platform/contracts";

export { RunRequest, RunResult };

/** Every run slot is taken and the queue is full: come back in a moment. */
export const RUNNER_BUSY = {
  code: "RUNNER_BUSY",
  status: 503,
  title: "Runner busy",
  description:
    "Every run slot is busy and the queue is full (`RUNNER_QUEUE_SIZE`); `Retry-After: 1`.",
} as const;

/** No sandbox could be started (the host is failing): readiness reports it too. */
export const SANDBOX_UNAVAILABLE = {
  code: "SANDBOX_UNAVAILABLE",
  status: 503,
  title: "Sandbox unavailable",
  description:
    "No sandbox could be started within 5 s, or the host lacks a sandbox layer: `detail` names it and the fix; `Retry-After: 5`.",
} as const;

/** The client already has its maximum of runs running or waiting (RUNNER_CLIENT_MAX_RUNS). */
export const CLIENT_BUSY = {
  code: "CLIENT_RUNS_EXCEEDED",
  status: 429,
  title: "Too many runs at once",
  description:
    "The client already has `RUNNER_CLIENT_MAX_RUNS` runs running or waiting; `Retry-After: 1`.",
} as const;

/** The client's runs used its sandbox time for the minute (RUNNER_CLIENT_SANDBOX_MS). */
export const CLIENT_BUDGET_SPENT = {
  code: "SANDBOX_TIME_EXCEEDED",
  status: 429,
  title: "Sandbox time used up",
  description:
    "The client's runs used `RUNNER_CLIENT_SANDBOX_MS` of sandbox time in the last minute; `Retry-After` until enough of it returns.",
} as const;

/** The runner's own codes (the generic ones come from @platform/server), code → status, title. */
export const RUNNER_PROBLEMS = {
  [RUNNER_BUSY.code]: RUNNER_BUSY,
  [SANDBOX_UNAVAILABLE.code]: SANDBOX_UNAVAILABLE,
  [CLIENT_BUSY.code]: CLIENT_BUSY,
  [CLIENT_BUDGET_SPENT.code]: CLIENT_BUDGET_SPENT,
} as const;
