import { parseEnv, parseTrustedProxies, type TrustedProxies } from "@platform/server";
import type { DatabaseConfig } from "./db/client.ts";
import { AdmissionsEnv, groupedIban } from "./env.ts";
import type { AccountLimits } from "./modules/account/service.ts";
import type { LoginThrottlePolicy } from "./modules/auth/service.ts";
import { DELIVERY_TIMING, type DeliveryPolicy } from "./modules/outbox/service.ts";
import type { BankAccount, ProviderName } from "./modules/payments/model.ts";
import type { StripeSettings } from "./modules/payments/service.ts";
import type { ReferenceSettings } from "./modules/references/service.ts";
import type { ReminderSettings } from "./modules/reminders/service.ts";
import type { WorkflowSettings } from "./modules/workflow/service.ts";

/*
 * The environment resolved into the settings the app and its background work run with. Every
 * default is written once, in env.ts's schema; `DEFAULT_SETTINGS` is that schema read from an
 * empty environment, so a test or a benchmark that omits a setting gets what production gets.
 */

export type PaymentSettings = {
  defaultProvider: ProviderName;
  manualTtlMs: number;
  manualInstructions: string;
  /** The institution's account for transfers; null when not configured. */
  bankAccount: BankAccount | null;
  checkoutTtlMs: number;
  /** Stripe is enabled when set. */
  stripe: StripeSettings | null;
  /** The HTTP client Stripe is called with (tests point it at a stand-in through apiBase). */
  fetch?: typeof fetch;
};

/** Outgoing webhooks (modules/webhooks). */
export type WebhookSettings = {
  /** http:// and private or loopback targets: development and tests only. */
  allowPrivateTargets: boolean;
  /** Key material for endpoint secrets; null: derived from the JWT secret. */
  key: string | null;
  timeoutMs: number;
  policy: DeliveryPolicy;
};

export type AppSettings = {
  jwtSecret: string;
  trustedProxies: TrustedProxies;
  /** PUBLIC_URL: the `servers` its OpenAPI document names (unset: the caller's own). */
  publicUrl?: string;
  sessionTtlMs: number;
  loginThrottle: LoginThrottlePolicy;
  registrationsPerHour: number;
  accountLimits: AccountLimits;
  documentsDir: string;
  uploadsPerHour: number;
  maxDocumentsPerApplication: number;
  payments: PaymentSettings;
  workflow: WorkflowSettings;
  /** The web portal's base URL, without a trailing slash: links in emails point there. */
  portalUrl: string;
  /** Admins must enrol in MFA before using admin routes. */
  adminMfaRequired: boolean;
  /** Key material for TOTP secrets; null: derived from the JWT secret. */
  mfaKey: string | null;
  /** Calendar years an erased applicant's payment records are kept. */
  paymentRetentionYears: number;
  references: ReferenceSettings;
  /** Weighted totals further apart than this request an extra review; 0: off. */
  reviewDisagreementThreshold: number;
  /** Who emails come from: also the ORGANIZER of interview invitations (.ics). */
  mailFrom: string;
  webhooks: WebhookSettings;
  /** Ed25519 PKCS#8 (base64) letters and receipts are signed with; null: one per process. */
  signingKey: string | null;
};

/** Environment → the database settings (server and CLI commands share it). */
export const databaseConfig = (env: AdmissionsEnv): DatabaseConfig => ({
  url: env.DATABASE_URL,
  sqliteFile: env.ADMISSIONS_SQLITE_FILE,
});

/** Environment → the app's tunables. */
export const appSettings = (env: AdmissionsEnv): AppSettings => ({
  jwtSecret: env.ADMISSIONS_JWT_SECRET,
  trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
  publicUrl: env.PUBLIC_URL,
  sessionTtlMs: env.ADMISSIONS_SESSION_TTL_SECONDS * 1000,
  loginThrottle: {
    maxFailuresPerAccount: env.ADMISSIONS_LOGIN_MAX_FAILURES,
    maxFailuresPerIp: env.ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP,
    windowMs: env.ADMISSIONS_LOGIN_WINDOW_SECONDS * 1000,
  },
  registrationsPerHour: env.ADMISSIONS_REGISTER_RATE_LIMIT,
  accountLimits: {
    emailsPerIpPerHour: env.ADMISSIONS_ACCOUNT_EMAIL_RATE_LIMIT,
    emailsPerAccountPerHour: env.ADMISSIONS_ACCOUNT_EMAILS_PER_ACCOUNT,
    linkUsesPerIpPerHour: env.ADMISSIONS_ACCOUNT_LINK_RATE_LIMIT,
  },
  documentsDir: env.ADMISSIONS_DOCUMENTS_DIR,
  uploadsPerHour: env.ADMISSIONS_UPLOAD_RATE_LIMIT,
  maxDocumentsPerApplication: env.ADMISSIONS_MAX_DOCUMENTS_PER_APPLICATION,
  payments: paymentSettings(env),
  portalUrl: env.ADMISSIONS_PORTAL_URL.replace(/\/+$/, ""),
  adminMfaRequired: env.ADMISSIONS_ADMIN_MFA_REQUIRED,
  mfaKey: env.ADMISSIONS_MFA_KEY ?? null,
  paymentRetentionYears: env.ADMISSIONS_PAYMENT_RETENTION_YEARS,
  references: {
    reminderIntervalMs: env.ADMISSIONS_REFERENCE_REMINDER_DAYS * 86_400_000,
    linkUsesPerIpPerHour: env.ADMISSIONS_REFERENCE_LINK_RATE_LIMIT,
  },
  reviewDisagreementThreshold: env.ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD,
  mailFrom: env.ADMISSIONS_MAIL_FROM,
  webhooks: {
    allowPrivateTargets: env.ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    key: env.ADMISSIONS_WEBHOOK_KEY ?? null,
    timeoutMs: env.ADMISSIONS_WEBHOOK_TIMEOUT_SECONDS * 1000,
    policy: {
      ...DELIVERY_TIMING,
      maxAttempts: env.ADMISSIONS_WEBHOOK_MAX_ATTEMPTS,
      baseBackoffMs: env.ADMISSIONS_WEBHOOK_RETRY_SECONDS * 1000,
    },
  },
  signingKey: env.ADMISSIONS_SIGNING_KEY ?? null,
  workflow: {
    offerResponseMs: env.ADMISSIONS_OFFER_RESPONSE_DAYS * 86_400_000,
    conditionDueMs: env.ADMISSIONS_CONDITION_DUE_DAYS * 86_400_000,
  },
});

/** Environment → when the background pass sends reminders and digests. */
export const reminderSettings = (env: AdmissionsEnv): ReminderSettings => ({
  draftNoticeMs: env.ADMISSIONS_DRAFT_REMINDER_DAYS * 86_400_000,
  decisionReminderMs: env.ADMISSIONS_DECISION_REMINDER_DAYS * 86_400_000,
  digestHourUtc: env.ADMISSIONS_DIGEST_HOUR_UTC,
});

/** Environment → how the outbox retries failed emails. */
export const deliveryPolicy = (env: AdmissionsEnv): DeliveryPolicy => ({
  ...DELIVERY_TIMING,
  maxAttempts: env.ADMISSIONS_EMAIL_MAX_ATTEMPTS,
  baseBackoffMs: env.ADMISSIONS_EMAIL_RETRY_SECONDS * 1000,
});

function paymentSettings(env: AdmissionsEnv): PaymentSettings {
  const secretKey = env.ADMISSIONS_STRIPE_SECRET_KEY;
  const webhookSecret = env.ADMISSIONS_STRIPE_WEBHOOK_SECRET;
  return {
    defaultProvider: env.ADMISSIONS_PAYMENT_PROVIDER,
    manualTtlMs: env.ADMISSIONS_MANUAL_PAYMENT_TTL_DAYS * 86_400_000,
    manualInstructions: env.ADMISSIONS_MANUAL_PAYMENT_INSTRUCTIONS,
    bankAccount: bankAccountOf(env),
    checkoutTtlMs: env.ADMISSIONS_STRIPE_CHECKOUT_TTL_MINUTES * 60_000,
    stripe:
      secretKey && webhookSecret
        ? {
            secretKey,
            webhookSecret,
            apiBase: env.ADMISSIONS_STRIPE_API_BASE.replace(/\/+$/, ""),
            returnUrl: env.ADMISSIONS_PAYMENT_RETURN_URL,
          }
        : null,
  };
}

/** The transfer account from `ADMISSIONS_BANK_*` (loadEnv checked they come together). */
function bankAccountOf(env: AdmissionsEnv): BankAccount | null {
  const iban = env.ADMISSIONS_BANK_IBAN;
  const accountName = env.ADMISSIONS_BANK_ACCOUNT_NAME;
  if (!iban || !accountName) return null;
  return {
    accountName,
    iban: groupedIban(iban),
    bic: env.ADMISSIONS_BANK_BIC ?? null,
    bankName: env.ADMISSIONS_BANK_NAME ?? null,
  };
}

/** env.ts's defaults, read from an empty environment (nothing here reads process.env). */
export const DEFAULT_ENV: AdmissionsEnv = parseEnv(AdmissionsEnv, {});
export const DEFAULT_SETTINGS: AppSettings = appSettings(DEFAULT_ENV);
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = deliveryPolicy(DEFAULT_ENV);
export const DEFAULT_REMINDERS: ReminderSettings = reminderSettings(DEFAULT_ENV);
