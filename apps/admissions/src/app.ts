import { type Logger, platform, type SharedStore, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import packageJson from "../package.json";
import type { Db } from "./db/client.ts";
import type { SubmissionChecks } from "./modules/applications/guards.ts";
import { applications } from "./modules/applications/index.ts";
import { audit } from "./modules/audit/index.ts";
import { authGuard } from "./modules/auth/guard.ts";
import { auth } from "./modules/auth/index.ts";
import { accessTokens } from "./modules/auth/jwt.ts";
import type { AuthDeps } from "./modules/auth/service.ts";
import type { LoginThrottlePolicy } from "./modules/auth/throttle.ts";
import { backoffice } from "./modules/backoffice/index.ts";
import { catalogCache } from "./modules/catalog/cache.ts";
import { catalog } from "./modules/catalog/index.ts";
import { decisions } from "./modules/decisions/index.ts";
import { documents } from "./modules/documents/index.ts";
import { DOCUMENT_LIMITS } from "./modules/documents/multipart.ts";
import { documentChecklist } from "./modules/documents/service.ts";
import { type DocumentStorage, localDiskStorage } from "./modules/documents/storage.ts";
import { probes } from "./modules/health/index.ts";
import { notifications } from "./modules/notifications/index.ts";
import { payments } from "./modules/payments/index.ts";
import { feeLedger } from "./modules/payments/ledger.ts";
import type { ProviderName } from "./modules/payments/model.ts";
import { manualProvider, type PaymentProvider } from "./modules/payments/providers.ts";
import { type StripeSettings, stripeProvider } from "./modules/payments/stripe.ts";
import { reference } from "./modules/reference/index.ts";
import { reviews } from "./modules/reviews/index.ts";
import { staff } from "./modules/staff/index.ts";
import { type PasswordCost, PRODUCTION_PASSWORD_COST } from "./modules/users/model.ts";
import type { WorkflowSettings } from "./modules/workflow/service.ts";
import { DEFAULT_WORKFLOW, workflowMoveDeps } from "./wiring.ts";

export type AppDeps = {
  db: Db;
  store: SharedStore;
  logger: Logger;
  jwtSecret: string;
  trustedProxies: TrustedProxies;
  now?: () => number;
  passwordCost?: PasswordCost;
  sessionTtlMs?: number;
  loginThrottle?: LoginThrottlePolicy;
  registrationsPerHour?: number;
  /** Document and fee checks run at submission; the real ones unless a test swaps them. */
  submissionChecks?: SubmissionChecks;
  /** Where document files live; local disk under data/documents by default. */
  documentStorage?: DocumentStorage;
  uploadsPerHour?: number;
  maxDocumentsPerApplication?: number;
  payments?: Partial<PaymentSettings>;
  workflow?: Partial<WorkflowSettings>;
};

export type PaymentSettings = {
  defaultProvider: ProviderName;
  manualTtlMs: number;
  manualInstructions: string;
  checkoutTtlMs: number;
  /** Stripe is enabled when set. */
  stripe: StripeSettings | null;
  /** The HTTP client Stripe is called with (tests point it at a stand-in through apiBase). */
  fetch?: typeof fetch;
};

export const DEFAULT_PAYMENT_SETTINGS: PaymentSettings = {
  defaultProvider: "manual",
  manualTtlMs: 14 * 86_400_000,
  manualInstructions:
    "Pay by bank transfer to the account shown on the admissions website, quoting the payment reference.",
  checkoutTtlMs: 60 * 60_000,
  stripe: null,
};

/**
 * The largest JSON body is an application form: a 20,000-character statement is up to 80 KB
 * of UTF-8. Documents come as multipart and have their own limit (DOCUMENT_LIMITS).
 */
export const MAX_BODY_BYTES = 256 * 1024;

export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  maxFailuresPerAccount: 5,
  maxFailuresPerIp: 50,
  windowMs: 15 * 60_000,
};

export function createApp(deps: AppDeps) {
  const { db, store, logger } = deps;
  const authDeps: AuthDeps = {
    db,
    store,
    tokens: accessTokens(deps.jwtSecret),
    now: deps.now ?? Date.now,
    sessionTtlMs: deps.sessionTtlMs ?? 14 * 86_400_000,
    passwordCost: deps.passwordCost ?? PRODUCTION_PASSWORD_COST,
    throttle: deps.loginThrottle ?? DEFAULT_LOGIN_THROTTLE,
  };
  const guard = authGuard(authDeps);
  const checks = deps.submissionChecks ?? { documents: documentChecklist, fees: feeLedger };
  const move = workflowMoveDeps(db, checks, { ...DEFAULT_WORKFLOW, ...deps.workflow });
  const applicationsDeps = { db, now: authDeps.now, move };
  const routed = { db, now: authDeps.now, guard, trustedProxies: deps.trustedProxies };
  const paymentSettings = { ...DEFAULT_PAYMENT_SETTINGS, ...deps.payments };
  const providers: Partial<Record<ProviderName, PaymentProvider>> = { manual: manualProvider };
  if (paymentSettings.stripe) {
    providers.stripe = stripeProvider(paymentSettings.stripe, logger, paymentSettings.fetch);
  }
  return new Elysia()
    .use(platform({ service: "admissions", logger, maxJsonBytes: MAX_BODY_BYTES }))
    .use(reference(packageJson.version))
    .use(probes({ db, store }))
    .use(
      auth({
        ...authDeps,
        guard,
        trustedProxies: deps.trustedProxies,
        registrationsPerHour: deps.registrationsPerHour ?? 20,
      }),
    )
    .use(catalog({ ...routed, cache: catalogCache(store) }))
    .use(applications({ ...applicationsDeps, guard, trustedProxies: deps.trustedProxies }))
    .use(decisions({ ...routed, move, applications: applicationsDeps }))
    .use(reviews({ ...routed, move }))
    .use(staff({ ...routed, passwordCost: authDeps.passwordCost }))
    .use(backoffice({ ...routed, move }))
    .use(audit({ db, guard }))
    .use(notifications({ db, guard }))
    .use(
      documents({
        db,
        store,
        logger,
        now: authDeps.now,
        guard,
        trustedProxies: deps.trustedProxies,
        storage: deps.documentStorage ?? localDiskStorage("data/documents"),
        limits: DOCUMENT_LIMITS,
        maxPerApplication: deps.maxDocumentsPerApplication ?? 20,
        uploadsPerHour: deps.uploadsPerHour ?? 60,
      }),
    )
    .use(
      payments({
        db,
        logger,
        now: authDeps.now,
        guard,
        trustedProxies: deps.trustedProxies,
        providers,
        defaultProvider: paymentSettings.defaultProvider,
        manualTtlMs: paymentSettings.manualTtlMs,
        manualInstructions: paymentSettings.manualInstructions,
        checkoutTtlMs: paymentSettings.checkoutTtlMs,
        stripeWebhookSecret: paymentSettings.stripe?.webhookSecret ?? null,
      }),
    );
}

export type App = ReturnType<typeof createApp>;
