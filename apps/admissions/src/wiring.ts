import type { Logger, Metrics, SharedStore } from "@platform/server";
import type { AppSettings } from "./config.ts";
import type { Db } from "./db/client.ts";
import { type AfterResponse, afterResponse } from "./lib/after-response.ts";
import { type DocumentStorage, localDiskStorage } from "./lib/files/storage.ts";
import { registrationEmails } from "./modules/account/service.ts";
import { type SubmissionChecks, submissionEffects } from "./modules/applications/service.ts";
import { auditEffects } from "./modules/audit/service.ts";
import { authGuard, rateLimitGuard } from "./modules/auth/guard.ts";
import { type AuthDeps, accessTokens } from "./modules/auth/service.ts";
import { catalogCache } from "./modules/catalog/service.ts";
import { purgeExpiredPayments } from "./modules/data-rights/service.ts";
import { documentChecklist } from "./modules/documents/service.ts";
import { eventEffects, publishEvents } from "./modules/events/service.ts";
import { interviewEffects } from "./modules/interviews/service.ts";
import { mfaDeps, mfaSecondFactor } from "./modules/mfa/service.ts";
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
import { feeLedger, type PaymentsDeps, paymentProviders } from "./modules/payments/service.ts";
import { profileSnapshotEffects } from "./modules/profile/service.ts";
import { sendRefereeReminders } from "./modules/references/service.ts";
import {
  type ReminderSettings,
  sendAdminDigests,
  sendDecisionDueReminders,
  sendDraftDeadlineNotices,
} from "./modules/reminders/service.ts";
import { signer } from "./modules/signed-documents/service.ts";
import { type PasswordCost, PRODUCTION_PASSWORD_COST } from "./modules/users/model.ts";
import {
  deliverDueWebhooks,
  fanOut,
  secretBox,
  type WebhookSender,
} from "./modules/webhooks/service.ts";
import type { MoveDeps } from "./modules/workflow/model.ts";
import { combineEffects, startJobs, type WorkflowSettings } from "./modules/workflow/service.ts";

/*
 * The composition root: every collaborator the app and the background pass are made of, built
 * once here (`collaborators`) from the settings, for app.ts and index.ts alike; which features'
 * effects run on every move, and which background work runs. `modules/workflow` owns the
 * machinery (moving, locks, combining effects, the scheduler) and names no feature; naming them
 * is this file's job, so no module has to import upward.
 */

/** What the app runs on besides its settings; each one left out is the production one. */
export type Runtime = {
  db: Db;
  store: SharedStore;
  logger: Logger;
  /** The clock: the real one unless a test sets its own. */
  now?: () => number;
  /** argon2id's cost: production's unless a test makes it cheap. */
  passwordCost?: PasswordCost;
  /** Where document files live: local disk under `documentsDir` unless given (index.ts: S3). */
  documentStorage?: DocumentStorage;
  /** The document and fee checks run at submission: the real ones unless a test swaps them. */
  submissionChecks?: SubmissionChecks;
  /** Request metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
  /** Work requests start without waiting for it; index.ts waits for it on shutdown. */
  afterResponse?: AfterResponse;
};

/** The whole settings object (env.ts's, resolved by config.ts) and the runtime. */
export type AppDeps = AppSettings & Runtime;

/**
 * Every collaborator, built once: index.ts builds them and hands the same ones to the app and
 * the background pass (one set of move effects, one secret box); app.ts builds them when it is
 * given none (tests, benchmarks, the route table).
 */
export function collaborators(deps: AppDeps) {
  const { db, store, logger } = deps;
  const now = deps.now ?? Date.now;
  const { sessionTtlMs, portalUrl } = deps;
  const mfa = mfaDeps({
    db,
    store,
    now,
    sessionTtlMs,
    portalUrl,
    // Unset: derived from the JWT secret (docs/admissions.md, ADMISSIONS_MFA_KEY).
    keyMaterial: deps.mfaKey ?? deps.jwtSecret,
    adminRequired: deps.adminMfaRequired,
  });
  const auth: AuthDeps = {
    db,
    store,
    tokens: accessTokens(deps.jwtSecret),
    now,
    sessionTtlMs,
    passwordCost: deps.passwordCost ?? PRODUCTION_PASSWORD_COST,
    throttle: deps.loginThrottle,
    registration: registrationEmails({ portalUrl, now, store, limits: deps.accountLimits }),
    secondFactor: mfaSecondFactor(mfa),
  };
  const checks = deps.submissionChecks ?? { documents: documentChecklist, fees: feeLedger };
  const { payments: pay } = deps;
  const payments: PaymentsDeps = {
    db,
    logger,
    now,
    providers: paymentProviders(pay.stripe, logger, pay.fetch),
    defaultProvider: pay.defaultProvider,
    manualTtlMs: pay.manualTtlMs,
    manualInstructions: pay.manualInstructions,
    bankAccount: pay.bankAccount,
    checkoutTtlMs: pay.checkoutTtlMs,
  };
  return {
    now,
    auth,
    mfa,
    guard: authGuard(auth),
    rateLimiting: rateLimitGuard(deps.trustedProxies),
    move: workflowMoveDeps(db, checks, deps.workflow, deps.mailFrom),
    payments,
    // Unset: derived from the JWT secret (ADMISSIONS_WEBHOOK_KEY).
    box: secretBox(deps.webhooks.key ?? deps.jwtSecret),
    documentStorage: deps.documentStorage ?? localDiskStorage(deps.documentsDir),
    signer: signer(deps.signingKey, logger, now),
    cache: catalogCache(store),
    afterResponse: deps.afterResponse ?? afterResponse(logger),
  };
}

export type Collaborators = ReturnType<typeof collaborators>;

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
  mailFrom: string,
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
  /** When reminders and digests go out. */
  reminders: ReminderSettings;
  /** Referee reminders: how often, and the portal their new links lead to. */
  references: { reminderIntervalMs: number; portalUrl: string };
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
  const draftNotices = await sendDraftDeadlineNotices(deps);
  const decisionReminders = await sendDecisionDueReminders(deps);
  const digests = await sendAdminDigests(deps);
  const refereeReminders = await sendRefereeReminders({ ...deps, ...deps.references });
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
