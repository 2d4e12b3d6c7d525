import { Elysia } from "elysia";
import { DOCUMENT_LIMITS } from "./lib/files/multipart.ts";
import { account } from "./modules/account/index.ts";
import { applications } from "./modules/applications/index.ts";
import { audit } from "./modules/audit/index.ts";
import { auth } from "./modules/auth/index.ts";
import { catalog } from "./modules/catalog/index.ts";
import { dataRights } from "./modules/data-rights/index.ts";
import { documents } from "./modules/documents/index.ts";
import { events } from "./modules/events/index.ts";
import { interviews } from "./modules/interviews/index.ts";
import { mfa } from "./modules/mfa/index.ts";
import { offers } from "./modules/offers/index.ts";
import { outbox } from "./modules/outbox/index.ts";
import { payments } from "./modules/payments/index.ts";
import { profile } from "./modules/profile/index.ts";
import { references } from "./modules/references/index.ts";
import { review } from "./modules/review/index.ts";
import { signedDocuments } from "./modules/signed-documents/index.ts";
import { staff } from "./modules/staff/index.ts";
import { webhooks } from "./modules/webhooks/index.ts";
import { fanOut } from "./modules/webhooks/service.ts";
import type { AppDeps, Collaborators } from "./wiring.ts";

/*
 * The app's areas, each a named plugin of the modules a person would look for together. One
 * short chain each, so the app's own chain stays short (a chain of every module is more than
 * TypeScript will infer: TS2589). Each module gets from `deps` (the settings and the runtime)
 * and `c` (the collaborators, built once) what it needs, nothing more.
 */

/** Who is calling and their own account: sign-in, the account's security, MFA, profile, data rights. */
export const accountsArea = (deps: AppDeps, c: Collaborators) => {
  const { db, store, logger, trustedProxies, portalUrl } = deps;
  const { guard, rateLimiting, now } = c;
  return new Elysia({ name: "accounts-area" })
    .use(
      auth({
        ...c.auth,
        guard,
        rateLimiting,
        trustedProxies,
        registrationsPerHour: deps.registrationsPerHour,
      }),
    )
    .use(
      account({
        ...c.auth,
        portalUrl,
        limits: deps.accountLimits,
        afterResponse: c.afterResponse,
        guard,
        rateLimiting,
        trustedProxies,
      }),
    )
    .use(mfa({ ...c.mfa, guard, rateLimiting, trustedProxies }))
    .use(profile({ db, now, portalUrl, guard }))
    .use(
      dataRights({
        db,
        store,
        logger,
        now,
        storage: c.documentStorage,
        move: c.move,
        portalUrl,
        passwordCost: c.auth.passwordCost,
        retentionYears: deps.paymentRetentionYears,
        guard,
        rateLimiting,
        trustedProxies,
      }),
    );
};

/** What an applicant applies to and with: the catalog, the application, documents, fee, references, letters. */
export const applicationsArea = (deps: AppDeps, c: Collaborators) => {
  const { db, store, logger, trustedProxies, portalUrl } = deps;
  const { guard, rateLimiting, now, move } = c;
  const storage = c.documentStorage;
  return new Elysia({ name: "applications-area" })
    .use(catalog({ db, now, guard, trustedProxies, move, cache: c.cache }))
    .use(applications({ db, now, move, guard, trustedProxies }))
    .use(
      documents({
        db,
        store,
        logger,
        now,
        guard,
        rateLimiting,
        trustedProxies,
        storage,
        limits: DOCUMENT_LIMITS,
        maxPerApplication: deps.maxDocumentsPerApplication,
        uploadsPerHour: deps.uploadsPerHour,
      }),
    )
    .use(
      payments({
        ...c.payments,
        guard,
        trustedProxies,
        stripeWebhookSecret: deps.payments.stripe?.webhookSecret ?? null,
      }),
    )
    .use(
      references({
        db,
        store,
        logger,
        now,
        storage,
        limits: DOCUMENT_LIMITS,
        portalUrl,
        settings: deps.references,
        guard,
        rateLimiting,
        trustedProxies,
      }),
    )
    .use(
      signedDocuments({
        db,
        store,
        now,
        guard,
        rateLimiting,
        payments: c.payments,
        signer: c.signer,
        verifyBaseUrl: `${portalUrl}/api/v1/signed-documents/verify`,
      }),
    );
};

/** Staff reviewing applications: rubrics, assignments, reviews, calibration, interviews. */
export const reviewArea = (deps: AppDeps, c: Collaborators) => {
  const routed = { db: deps.db, now: c.now, guard: c.guard, trustedProxies: deps.trustedProxies };
  return new Elysia({ name: "review-area" })
    .use(review({ ...routed, move: c.move, defaultThreshold: deps.reviewDisagreementThreshold }))
    .use(interviews({ ...routed, move: c.move, mailFrom: deps.mailFrom }));
};

/** Admins' decisions and what follows them: offers, conditions, deferrals, reasons. */
export const offersArea = (deps: AppDeps, c: Collaborators) =>
  new Elysia({ name: "offers-area" }).use(
    offers({
      db: deps.db,
      now: c.now,
      move: c.move,
      guard: c.guard,
      trustedProxies: deps.trustedProxies,
    }),
  );

/** The back office: staff accounts, bulk work, the audit log, the outbox; the change feed and webhooks. */
export const staffArea = (deps: AppDeps, c: Collaborators) => {
  const { db, store, trustedProxies, portalUrl } = deps;
  const { guard, now } = c;
  return new Elysia({ name: "staff-area" })
    .use(
      staff({
        db,
        now,
        guard,
        trustedProxies,
        move: c.move,
        passwordCost: c.auth.passwordCost,
        store,
        portalUrl,
      }),
    )
    .use(audit({ db, guard }))
    .use(outbox({ db, guard }))
    .use(events({ db, guard, onPublished: fanOut }))
    .use(
      webhooks({
        db,
        now,
        box: c.box,
        allowPrivateTargets: deps.webhooks.allowPrivateTargets,
        guard,
        trustedProxies,
      }),
    );
};
