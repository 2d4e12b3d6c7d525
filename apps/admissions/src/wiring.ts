import type { Logger } from "@platform/server";
import { DEFAULT_REMINDERS, DEFAULT_SETTINGS } from "./config.ts";
import type { Db } from "./db/client.ts";
import { type SubmissionChecks, submissionEffects } from "./modules/applications/service.ts";
import { auditEffects } from "./modules/audit/service.ts";
import { purgeExpiredPayments } from "./modules/data-rights/service.ts";
import { eventEffects, publishEvents } from "./modules/events/service.ts";
import { interviewEffects } from "./modules/interviews/service.ts";
import {
  conditionEffects,
  decisionEffects,
  expireDueOffers,
  reasonEffects,
  settleOverdueConditions,
} from "./modules/offers/service.ts";
import type { Mailer } from "./modules/outbox/service.ts";
import {
  type DeliveryPolicy,
  deliverDueEmails,
  notificationEffects,
} from "./modules/outbox/service.ts";
import { profileSnapshotEffects } from "./modules/profile/service.ts";
import { sendRefereeReminders } from "./modules/references/service.ts";
import {
  type ReminderSettings,
  sendAdminDigests,
  sendDecisionDueReminders,
  sendDraftDeadlineNotices,
} from "./modules/reminders/service.ts";
import { deliverDueWebhooks, fanOut, type WebhookSender } from "./modules/webhooks/service.ts";
import type { MoveDeps } from "./modules/workflow/model.ts";
import { combineEffects, startJobs, type WorkflowSettings } from "./modules/workflow/service.ts";

/*
 * The composition root of the lifecycle: which features' effects run on every move, and which
 * background work runs. `modules/workflow` owns the machinery (moving, locks, combining effects,
 * the scheduler) and names no feature; naming them is this file's job, beside app.ts, so no
 * module has to import upward.
 */

/**
 * How every status change is made, whoever asks (a request, a bulk change, the expiry job):
 * the submission guards and the decision rules first (they may refuse), the applicant's profile
 * copied at submission, then the applicant's email, the audit entry and the change feed's
 * event (last: the webhooks tell only of a move that was written in full), all in the move's
 * transaction.
 */
export const workflowMoveDeps = (
  db: Db,
  checks: SubmissionChecks,
  settings: WorkflowSettings,
  mailFrom = DEFAULT_SETTINGS.mailFrom,
): MoveDeps => ({
  dialect: db.dialect,
  effects: combineEffects(
    submissionEffects(checks),
    decisionEffects({ defaultResponseMs: settings.offerResponseMs }),
    conditionEffects({ defaultDueMs: settings.conditionDueMs }),
    reasonEffects,
    profileSnapshotEffects,
    notificationEffects,
    interviewEffects(mailFrom),
    auditEffects,
    eventEffects,
  ),
});

export type JobsDeps = {
  db: Db;
  logger: Logger;
  now: () => number;
  move: MoveDeps;
  mailer: Mailer;
  delivery: DeliveryPolicy;
  /** When reminders and digests go out; env.ts's defaults when left out. */
  reminders?: ReminderSettings;
  /** Referee reminders: how often, and the portal their new links lead to (env.ts's defaults). */
  references?: { reminderIntervalMs: number; portalUrl: string };
  /** How webhooks go out; none are posted when left out (events are still published). */
  webhooks?: WebhookSender;
};

/**
 * One pass of the background work: expire the offers due and end those whose conditions are
 * overdue, write the reminders and digests due, deliver the emails due (these included), and
 * delete the payment records of erased applicants whose retention period is over; publish the
 * change feed's new events and post the webhooks due.
 */
export async function runJobsOnce(deps: JobsDeps) {
  const expired = await expireDueOffers(deps);
  const conditionsNotMet = await settleOverdueConditions(deps);
  const reminding = { ...deps, reminders: deps.reminders ?? DEFAULT_REMINDERS };
  const draftNotices = await sendDraftDeadlineNotices(reminding);
  const decisionReminders = await sendDecisionDueReminders(reminding);
  const digests = await sendAdminDigests(reminding);
  const refereeReminders = await sendRefereeReminders({
    ...deps,
    ...(deps.references ?? {
      reminderIntervalMs: DEFAULT_SETTINGS.references.reminderIntervalMs,
      portalUrl: DEFAULT_SETTINGS.portalUrl,
    }),
  });
  const delivered = await deliverDueEmails({ ...deps, policy: deps.delivery });
  const purged = await purgeExpiredPayments(deps.db, deps.now());
  const published = await publishEvents(deps.db, fanOut);
  const webhooks = deps.webhooks
    ? await deliverDueWebhooks(deps.webhooks)
    : { delivered: 0, failed: 0 };
  return {
    expired,
    conditionsNotMet,
    draftNotices,
    decisionReminders,
    digests,
    refereeReminders,
    ...delivered,
    purged,
    published,
    webhooksDelivered: webhooks.delivered,
    webhooksFailed: webhooks.failed,
  };
}

/** The background work every `intervalMs`, in the server process (see `startJobs`). */
export const startBackgroundJobs = (deps: JobsDeps, intervalMs: number) =>
  startJobs(() => runJobsOnce(deps), deps.logger, intervalMs);
