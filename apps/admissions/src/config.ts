import { parseTrustedProxies } from "@platform/server";
import type { AppDeps, PaymentSettings } from "./app.ts";
import type { DatabaseConfig } from "./db/client.ts";
import type { AdmissionsEnv } from "./env.ts";
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from "./modules/notifications/worker.ts";

/** Environment → the database settings (server and CLI commands share it). */
export const databaseConfig = (env: AdmissionsEnv): DatabaseConfig => ({
  url: env.DATABASE_URL,
  sqliteFile: env.ADMISSIONS_SQLITE_FILE,
});

/** Environment → the app's tunables. */
export const appSettings = (
  env: AdmissionsEnv,
): Omit<AppDeps, "db" | "store" | "logger" | "submissionChecks" | "documentStorage"> => ({
  jwtSecret: env.ADMISSIONS_JWT_SECRET,
  trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
  sessionTtlMs: env.ADMISSIONS_SESSION_TTL_SECONDS * 1000,
  loginThrottle: {
    maxFailuresPerAccount: env.ADMISSIONS_LOGIN_MAX_FAILURES,
    maxFailuresPerIp: env.ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP,
    windowMs: env.ADMISSIONS_LOGIN_WINDOW_SECONDS * 1000,
  },
  registrationsPerHour: env.ADMISSIONS_REGISTER_RATE_LIMIT,
  uploadsPerHour: env.ADMISSIONS_UPLOAD_RATE_LIMIT,
  maxDocumentsPerApplication: env.ADMISSIONS_MAX_DOCUMENTS_PER_APPLICATION,
  payments: paymentSettings(env),
  workflow: { offerResponseMs: env.ADMISSIONS_OFFER_RESPONSE_DAYS * 86_400_000 },
});

/** Environment → how the outbox retries failed emails. */
export const deliveryPolicy = (env: AdmissionsEnv): DeliveryPolicy => ({
  ...DEFAULT_DELIVERY_POLICY,
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
