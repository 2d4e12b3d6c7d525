import { RUN_TIMEOUT_MAX_MS } from "@platform/contracts";
import { HttpProblem } from "@platform/server";
import { BudgetSpentError } from "../../sandbox/budget.ts";
import { ClientBusyError, GateFullError } from "../../sandbox/gate.ts";
import { NoSandboxError } from "../../sandbox/pool.ts";
import type { SandboxRunner } from "../../sandbox/runner.ts";
import {
  CLIENT_BUDGET_SPENT,
  CLIENT_BUSY,
  RUNNER_BUSY,
  type RunRequest,
  type RunResult,
  SANDBOX_UNAVAILABLE,
} from "./model.ts";

/** Spec 4.3 rule 2: the timeout field when given, else 5000 ms; the schema caps it at 5000. */
export const DEFAULT_TIMEOUT_MS = RUN_TIMEOUT_MAX_MS;

export async function runCode(
  runner: SandboxRunner,
  request: RunRequest,
  client: string | undefined,
): Promise<RunResult> {
  try {
    return await runner.run(request.code, request.timeout ?? DEFAULT_TIMEOUT_MS, client);
  } catch (error) {
    if (error instanceof ClientBusyError) {
      throw new HttpProblem(CLIENT_BUSY, {
        detail: `${error.message}; retry when one has answered`,
        headers: { "retry-after": "1" },
      });
    }
    if (error instanceof BudgetSpentError) {
      throw new HttpProblem(CLIENT_BUDGET_SPENT, {
        detail: `${error.message}; retry in ${error.retryAfterSeconds} s`,
        headers: { "retry-after": String(error.retryAfterSeconds) },
      });
    }
    if (error instanceof GateFullError) {
      throw new HttpProblem(RUNNER_BUSY, {
        detail: "Every sandbox is busy and the queue is full; retry shortly",
        headers: { "retry-after": "1" },
      });
    }
    if (error instanceof NoSandboxError) {
      // A host that lacks a layer says what and how to fix it; a failing one, to retry.
      throw new HttpProblem(SANDBOX_UNAVAILABLE, {
        detail: runner.unavailable
          ? `The runner cannot run programs: ${runner.unavailable}`
          : "No sandbox could be started; retry shortly",
        headers: { "retry-after": "5" },
      });
    }
    throw error;
  }
}
