import { type Logger, platform, type SharedStore, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import packageJson from "../package.json";
import type { Db } from "./db/client.ts";
import { coreSubmissionChecks, type SubmissionChecks } from "./modules/applications/guards.ts";
import { applications } from "./modules/applications/index.ts";
import { authGuard } from "./modules/auth/guard.ts";
import { auth } from "./modules/auth/index.ts";
import { accessTokens } from "./modules/auth/jwt.ts";
import type { AuthDeps } from "./modules/auth/service.ts";
import type { LoginThrottlePolicy } from "./modules/auth/throttle.ts";
import { catalogCache } from "./modules/catalog/cache.ts";
import { catalog } from "./modules/catalog/index.ts";
import { probes } from "./modules/health/index.ts";
import { reference } from "./modules/reference/index.ts";
import { type PasswordCost, PRODUCTION_PASSWORD_COST } from "./modules/users/model.ts";

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
  /** Document and fee checks run at submission (filled by the documents/payments features). */
  submissionChecks?: SubmissionChecks;
};

/**
 * The largest body is an application form: a 20,000-character statement is up to 80 KB of
 * UTF-8. Files (documents) will not come as JSON.
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
    .use(catalog({ db, cache: catalogCache(store), now: authDeps.now, guard }))
    .use(
      applications({
        db,
        now: authDeps.now,
        checks: deps.submissionChecks ?? coreSubmissionChecks,
        guard,
        trustedProxies: deps.trustedProxies,
      }),
    );
}

export type App = ReturnType<typeof createApp>;
