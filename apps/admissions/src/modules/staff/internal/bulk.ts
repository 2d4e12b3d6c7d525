import { HttpProblem } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { Application, MoveDeps, Origin } from "../../workflow/model.ts";
import { decisionOf, moveApplication } from "../../workflow/service.ts";
import type { BulkTransitionBody, Refusal } from "../model.ts";

export type BulkDeps = { db: Db; now: () => number; move: MoveDeps };

/**
 * Moves many applications in one transaction, all or none. Every move goes through the same
 * path as a single one (table, role, seats, waitlist, email, audit), so an offer to the last
 * seat counts against the next one in the same request. Refusals are collected, not stopped
 * at: if any application cannot move, everything is rolled back and 409 BULK_REFUSED lists
 * each refused application with its own code and reason.
 */
export function bulkTransition(
  deps: BulkDeps,
  origin: Origin,
  body: BulkTransitionBody,
): Promise<{
  batchId: string;
  moved: number;
  applications: Pick<Application, "id" | "status" | "version">[];
}> {
  const nowMs = deps.now();
  const batchId = newId();
  // One order for every bulk request: two overlapping batches lock in the same sequence.
  const ids = [...body.applicationIds].sort();
  return deps.db.transaction(async (tx) => {
    const moved: Pick<Application, "id" | "status" | "version">[] = [];
    const refusals: Refusal[] = [];
    for (const id of ids) {
      try {
        const application = await moveApplication(
          tx,
          deps.move,
          origin,
          id,
          {
            to: body.to,
            reason: body.reason ?? null,
            reasonCode: body.reasonCode ?? null,
            preconditions: [],
            decision: decisionOf(body),
            via: "bulk",
            batchId,
          },
          nowMs,
        );
        moved.push({ id, status: application.status, version: application.version });
      } catch (error) {
        if (!(error instanceof HttpProblem)) throw error;
        refusals.push({
          applicationId: id,
          status: error.status,
          code: error.code,
          detail: error.errors?.length
            ? error.errors.map((e) => `${e.path} ${e.message}`).join("; ")
            : error.message,
        });
      }
    }
    if (refusals.length > 0) {
      throw problem("BULK_REFUSED", {
        detail: `${refusals.length} of ${ids.length} applications cannot move to ${body.to}; nothing was changed`,
        extensions: { refusals },
      });
    }
    return { batchId, moved: moved.length, applications: moved };
  });
}
