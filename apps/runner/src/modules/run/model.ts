import { RunRequest, RunResult } from "@platform/contracts";

export { RunRequest, RunResult };

/** Every run slot is taken and the queue is full: come back in a moment. */
export const RUNNER_BUSY = { code: "RUNNER_BUSY", status: 503, title: "Runner busy" } as const;

/** No sandbox could be started (the host is failing): readiness reports it too. */
export const SANDBOX_UNAVAILABLE = {
  code: "SANDBOX_UNAVAILABLE",
  status: 503,
  title: "Sandbox unavailable",
} as const;
