import { parseTrustedProxies } from "@platform/server";
import type { AppDeps } from "./app.ts";
import type { DatabaseConfig } from "./db/client.ts";
import type { AdmissionsEnv } from "./env.ts";

/** Environment → the database settings (server and CLI commands share it). */
export const databaseConfig = (env: AdmissionsEnv): DatabaseConfig => ({
  url: env.DATABASE_URL,
  sqliteFile: env.ADMISSIONS_SQLITE_FILE,
});

/** Environment → the app's tunables. */
export const appSettings = (
  env: AdmissionsEnv,
): Omit<AppDeps, "db" | "store" | "logger" | "submissionChecks"> => ({
  jwtSecret: env.ADMISSIONS_JWT_SECRET,
  trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
  sessionTtlMs: env.ADMISSIONS_SESSION_TTL_SECONDS * 1000,
  loginThrottle: {
    maxFailuresPerAccount: env.ADMISSIONS_LOGIN_MAX_FAILURES,
    maxFailuresPerIp: env.ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP,
    windowMs: env.ADMISSIONS_LOGIN_WINDOW_SECONDS * 1000,
  },
  registrationsPerHour: env.ADMISSIONS_REGISTER_RATE_LIMIT,
});
