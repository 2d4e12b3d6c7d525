import { ConfigError, commonEnv, parseEnv, port, redisEnv, EnvType as T } from "@platform/server";

/** The development fallback; refused in production (see `loadEnv`). */
export const DEV_JWT_SECRET = "dev-only-admissions-jwt-secret-change-me-0123456789";
export const MIN_JWT_SECRET_LENGTH = 32;

export const AdmissionsEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  ADMISSIONS_PORT: port(3001),
  /** PostgreSQL when set; otherwise the SQLite file below. */
  DATABASE_URL: T.Optional(T.String({ pattern: "^postgres(ql)?://" })),
  ADMISSIONS_SQLITE_FILE: T.String({ default: "data/admissions.sqlite", minLength: 1 }),
  /** Apply pending migrations at start-up (`bun run migrate` does it on demand). */
  ADMISSIONS_MIGRATE_ON_START: T.Boolean({ default: true }),
  ADMISSIONS_JWT_SECRET: T.String({ default: DEV_JWT_SECRET, minLength: 1 }),
  /** Lifetime of a sign-in: its session cookie and refresh tokens (never extended). */
  ADMISSIONS_SESSION_TTL_SECONDS: T.Integer({
    minimum: 300,
    maximum: 90 * 86_400,
    default: 14 * 86_400,
  }),
  /** Failed logins allowed per account, and per client IP, in the throttle window. */
  ADMISSIONS_LOGIN_MAX_FAILURES: T.Integer({ minimum: 1, maximum: 1_000, default: 5 }),
  ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP: T.Integer({ minimum: 1, maximum: 100_000, default: 50 }),
  ADMISSIONS_LOGIN_WINDOW_SECONDS: T.Integer({ minimum: 1, maximum: 86_400, default: 900 }),
  /** Registrations per client IP per hour. */
  ADMISSIONS_REGISTER_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
});

export type AdmissionsEnv = typeof AdmissionsEnv.static;

/**
 * Parsed configuration. In production a default or short JWT secret is a start-up error:
 * anyone who knows the repository could otherwise mint admin tokens.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): AdmissionsEnv {
  const env = parseEnv(AdmissionsEnv, source);
  if (env.NODE_ENV === "production") {
    const secret = env.ADMISSIONS_JWT_SECRET;
    if (secret === DEV_JWT_SECRET || secret.length < MIN_JWT_SECRET_LENGTH) {
      throw new ConfigError(
        `Invalid configuration:\n  ADMISSIONS_JWT_SECRET: production needs a secret of at least ${MIN_JWT_SECRET_LENGTH} characters that is not the development default`,
      );
    }
  }
  return env;
}
