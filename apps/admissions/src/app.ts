import {
  type Logger,
  type Metrics,
  platform,
  type SharedStore,
  type TrustedProxies,
} from "@platform/server";
import { Elysia } from "elysia";
import packageJson from "../package.json";
import {
  type AppSettings,
  DEFAULT_SETTINGS,
  type PaymentSettings,
  type WebhookSettings,
} from "./config.ts";
import type { Db } from "./db/client.ts";
import { type AfterResponse, afterResponse } from "./lib/after-response.ts";
import { DOCUMENT_LIMITS } from "./lib/files/multipart.ts";
import { type DocumentStorage, localDiskStorage } from "./lib/files/storage.ts";
import { account } from "./modules/account/index.ts";
import { registrationEmails } from "./modules/account/service.ts";
import { api } from "./modules/api/index.ts";
import { applications } from "./modules/applications/index.ts";
import type { SubmissionChecks } from "./modules/applications/service.ts";
import { audit } from "./modules/audit/index.ts";
import { authGuard, rateLimitGuard } from "./modules/auth/guard.ts";
import { auth } from "./modules/auth/index.ts";
import type { AuthDeps } from "./modules/auth/service.ts";
import { accessTokens } from "./modules/auth/service.ts";
import { catalog } from "./modules/catalog/index.ts";
import { catalogCache } from "./modules/catalog/service.ts";
import { dataRights } from "./modules/data-rights/index.ts";
import { documents } from "./modules/documents/index.ts";
import { documentChecklist } from "./modules/documents/service.ts";
import { events } from "./modules/events/index.ts";
import { probes } from "./modules/health/index.ts";
import { interviews } from "./modules/interviews/index.ts";
import { mfa } from "./modules/mfa/index.ts";
import { mfaDeps, mfaSecondFactor } from "./modules/mfa/service.ts";
import { offers } from "./modules/offers/index.ts";
import { outbox } from "./modules/outbox/index.ts";
import { payments } from "./modules/payments/index.ts";
import { feeLedger, type PaymentsDeps, paymentProviders } from "./modules/payments/service.ts";
import { profile } from "./modules/profile/index.ts";
import { references } from "./modules/references/index.ts";
import type { ReferenceSettings } from "./modules/references/service.ts";
import { review } from "./modules/review/index.ts";
import { signedDocuments } from "./modules/signed-documents/index.ts";
import { signer } from "./modules/signed-documents/service.ts";
import { staff } from "./modules/staff/index.ts";
import { type PasswordCost, PRODUCTION_PASSWORD_COST } from "./modules/users/model.ts";
import { webhooks } from "./modules/webhooks/index.ts";
import { fanOut, secretBox } from "./modules/webhooks/service.ts";
import type { MoveDeps } from "./modules/workflow/model.ts";
import type { WorkflowSettings } from "./modules/workflow/service.ts";
import { MODELS } from "./openapi-models.ts";
import { workflowMoveDeps } from "./wiring.ts";

type Overrides = Partial<
  Omit<
    AppSettings,
    "jwtSecret" | "trustedProxies" | "payments" | "workflow" | "references" | "webhooks"
  >
>;

/** What the app runs on; every setting left out is env.ts's default (`DEFAULT_SETTINGS`). */
export type AppDeps = Overrides & {
  db: Db;
  store: SharedStore;
  logger: Logger;
  jwtSecret: string;
  trustedProxies: TrustedProxies;
  now?: () => number;
  passwordCost?: PasswordCost;
  /** Document and fee checks run at submission; the real ones unless a test swaps them. */
  submissionChecks?: SubmissionChecks;
  /** How moves are made; index.ts builds it once and shares it with the background jobs. */
  move?: MoveDeps;
  /** Where document files live; local disk under `documentsDir` by default. */
  documentStorage?: DocumentStorage;
  /** Request metrics, served apart by index.ts (none in most tests). */
  metrics?: Metrics;
  payments?: Partial<PaymentSettings>;
  workflow?: Partial<WorkflowSettings>;
  references?: Partial<ReferenceSettings>;
  webhooks?: Partial<WebhookSettings>;
  /** Work requests start without waiting for it; index.ts waits for it on shutdown. */
  afterResponse?: AfterResponse;
};

/**
 * The largest JSON body is an application form: a 20,000-character statement is up to 80 KB
 * of UTF-8. Documents come as multipart and have their own limit (DOCUMENT_LIMITS).
 */
export const MAX_BODY_BYTES = 256 * 1024;

export function createApp(deps: AppDeps) {
  const { db, store, logger } = deps;
  const now = deps.now ?? Date.now;
  const sessionTtlMs = deps.sessionTtlMs ?? DEFAULT_SETTINGS.sessionTtlMs;
  const portalUrl = deps.portalUrl ?? DEFAULT_SETTINGS.portalUrl;
  const mfaSettings = mfaDeps({
    db,
    store,
    now,
    sessionTtlMs,
    portalUrl,
    keyMaterial: deps.mfaKey ?? deps.jwtSecret,
    adminRequired: deps.adminMfaRequired ?? DEFAULT_SETTINGS.adminMfaRequired,
  });
  const authDeps: AuthDeps = {
    db,
    store,
    tokens: accessTokens(deps.jwtSecret),
    now,
    sessionTtlMs,
    passwordCost: deps.passwordCost ?? PRODUCTION_PASSWORD_COST,
    throttle: deps.loginThrottle ?? DEFAULT_SETTINGS.loginThrottle,
    registration: registrationEmails({
      portalUrl,
      now,
      store,
      limits: deps.accountLimits ?? DEFAULT_SETTINGS.accountLimits,
    }),
    secondFactor: mfaSecondFactor(mfaSettings),
  };
  const guard = authGuard(authDeps);
  const rateLimiting = rateLimitGuard(deps.trustedProxies);
  const checks = deps.submissionChecks ?? { documents: documentChecklist, fees: feeLedger };
  const move =
    deps.move ??
    workflowMoveDeps(
      db,
      checks,
      { ...DEFAULT_SETTINGS.workflow, ...deps.workflow },
      deps.mailFrom ?? DEFAULT_SETTINGS.mailFrom,
    );
  const disagreementThreshold =
    deps.reviewDisagreementThreshold ?? DEFAULT_SETTINGS.reviewDisagreementThreshold;
  const applicationsDeps = { db, now: authDeps.now, move };
  const routed = { db, now: authDeps.now, guard, trustedProxies: deps.trustedProxies };
  const paymentSettings = { ...DEFAULT_SETTINGS.payments, ...deps.payments };
  const providers = paymentProviders(paymentSettings.stripe, logger, paymentSettings.fetch);
  const paymentsDeps: PaymentsDeps = {
    db,
    logger,
    now: authDeps.now,
    providers,
    defaultProvider: paymentSettings.defaultProvider,
    manualTtlMs: paymentSettings.manualTtlMs,
    manualInstructions: paymentSettings.manualInstructions,
    checkoutTtlMs: paymentSettings.checkoutTtlMs,
  };
  const webhookSettings = { ...DEFAULT_SETTINGS.webhooks, ...deps.webhooks };
  const webhooksDeps = {
    db,
    now,
    box: secretBox(webhookSettings.key ?? deps.jwtSecret),
    allowPrivateTargets: webhookSettings.allowPrivateTargets,
  };
  const documentStorage =
    deps.documentStorage ?? localDiskStorage(deps.documentsDir ?? DEFAULT_SETTINGS.documentsDir);
  // The decision and review modules, mounted together: see the note on the chain below.
  const reviewing = new Elysia()
    .use(offers({ ...routed, move }))
    .use(interviews({ ...routed, move, mailFrom: deps.mailFrom ?? DEFAULT_SETTINGS.mailFrom }))
    .use(review({ ...routed, move, defaultThreshold: disagreementThreshold }));
  const withAccounts = new Elysia()
    .use(
      platform({
        service: "admissions",
        logger,
        maxJsonBytes: MAX_BODY_BYTES,
        metrics: deps.metrics,
      }),
    )
    .use(api(packageJson.version, MODELS))
    .use(probes({ db, store }))
    .use(
      auth({
        ...authDeps,
        guard,
        rateLimiting,
        trustedProxies: deps.trustedProxies,
        registrationsPerHour: deps.registrationsPerHour ?? DEFAULT_SETTINGS.registrationsPerHour,
      }),
    )
    .use(
      account({
        ...authDeps,
        portalUrl,
        limits: deps.accountLimits ?? DEFAULT_SETTINGS.accountLimits,
        afterResponse: deps.afterResponse ?? afterResponse(logger),
        guard,
        rateLimiting,
        trustedProxies: deps.trustedProxies,
      }),
    )
    .use(mfa({ ...mfaSettings, guard, rateLimiting, trustedProxies: deps.trustedProxies }))
    .use(profile({ db, now, portalUrl, guard }))
    .use(catalog({ ...routed, move, cache: catalogCache(store) }));
  // Two statements, not one chain: TypeScript gives up on a chain of this many Elysia
  // instances (TS2589, "excessively deep"); the routes and their hooks are the same.
  return withAccounts
    .use(
      applications({
        ...applicationsDeps,
        guard,
        trustedProxies: deps.trustedProxies,
      }),
    )
    .use(reviewing)
    .use(staff({ ...routed, move, passwordCost: authDeps.passwordCost, store, portalUrl }))
    .use(audit({ db, guard }))
    .use(outbox({ db, guard }))
    .use(events({ db, guard, onPublished: fanOut }))
    .use(webhooks({ ...webhooksDeps, guard, trustedProxies: deps.trustedProxies }))
    .use(
      documents({
        db,
        store,
        logger,
        now: authDeps.now,
        guard,
        rateLimiting,
        trustedProxies: deps.trustedProxies,
        storage: documentStorage,
        limits: DOCUMENT_LIMITS,
        maxPerApplication:
          deps.maxDocumentsPerApplication ?? DEFAULT_SETTINGS.maxDocumentsPerApplication,
        uploadsPerHour: deps.uploadsPerHour ?? DEFAULT_SETTINGS.uploadsPerHour,
      }),
    )
    .use(
      payments({
        ...paymentsDeps,
        guard,
        trustedProxies: deps.trustedProxies,
        stripeWebhookSecret: paymentSettings.stripe?.webhookSecret ?? null,
      }),
    )
    .use(
      dataRights({
        db,
        store,
        logger,
        now,
        storage: documentStorage,
        move,
        portalUrl,
        passwordCost: authDeps.passwordCost,
        retentionYears: deps.paymentRetentionYears ?? DEFAULT_SETTINGS.paymentRetentionYears,
        guard,
        rateLimiting,
        trustedProxies: deps.trustedProxies,
      }),
    )
    .use(
      references({
        db,
        store,
        logger,
        now,
        storage: documentStorage,
        limits: DOCUMENT_LIMITS,
        portalUrl,
        settings: { ...DEFAULT_SETTINGS.references, ...deps.references },
        guard,
        rateLimiting,
        trustedProxies: deps.trustedProxies,
      }),
    )
    .use(
      signedDocuments({
        db,
        store,
        now,
        guard,
        rateLimiting,
        payments: paymentsDeps,
        signer: signer(deps.signingKey ?? DEFAULT_SETTINGS.signingKey, logger, now),
        verifyBaseUrl: `${portalUrl}/api/v1/signed-documents/verify`,
      }),
    );
}

export type App = ReturnType<typeof createApp>;
