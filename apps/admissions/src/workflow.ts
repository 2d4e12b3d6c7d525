import type { Logger } from "@platform/server";
import type { Db } from "./db/client.ts";
import type { SubmissionChecks } from "./modules/applications/guards.ts";
import { combineEffects, type MoveDeps } from "./modules/applications/move.ts";
import { auditEffects } from "./modules/audit/service.ts";
import { decisionEffects } from "./modules/decisions/effects.ts";
import { expireDueOffers } from "./modules/decisions/expiry.ts";
import type { Mailer } from "./modules/notifications/mailer.ts";
import { notificationEffects } from "./modules/notifications/outbox.ts";
import { type DeliveryPolicy, deliverDueEmails } from "./modules/notifications/worker.ts";

export type WorkflowSettings = {
  /** An offer's response deadline when the decision names none. */
  offerResponseMs: number;
};

export const DEFAULT_WORKFLOW: WorkflowSettings = { offerResponseMs: 14 * 86_400_000 };

/**
 * How every status change is made, whoever asks (a request, a bulk change, the expiry job):
 * the decision rules first (they may refuse), then the applicant's email and the audit entry,
 * all in the move's transaction.
 */
export const workflowMoveDeps = (
  db: Db,
  checks: SubmissionChecks,
  settings: WorkflowSettings,
): MoveDeps => ({
  dialect: db.dialect,
  checks,
  effects: combineEffects(
    decisionEffects({ defaultResponseMs: settings.offerResponseMs }),
    notificationEffects,
    auditEffects,
  ),
});

export type JobsDeps = {
  db: Db;
  logger: Logger;
  now: () => number;
  move: MoveDeps;
  mailer: Mailer;
  delivery: DeliveryPolicy;
};

/** One pass of the background work: expire the offers due, then deliver the emails due. */
export async function runJobsOnce(deps: JobsDeps) {
  const expired = await expireDueOffers(deps);
  const delivered = await deliverDueEmails({ ...deps, policy: deps.delivery });
  return { expired, ...delivered };
}

/**
 * Runs the background work every `intervalMs` inside the server process (a pass never overlaps
 * the previous one). Everything it works from is in the database, so several replicas can run
 * it side by side and a restart loses nothing. `stop` waits for the pass in progress.
 */
export function startJobs(deps: JobsDeps, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const done = await runJobsOnce(deps);
      if (done.expired || done.sent || done.failed) deps.logger.info("background pass", done);
    } catch (error) {
      deps.logger.error("background pass failed", { err: error });
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), intervalMs);
  };
  running = pass();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
