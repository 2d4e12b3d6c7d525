import {
  ConfigError,
  commonEnv,
  metricsPort,
  oneOf,
  parseEnv,
  port,
  redisEnv,
  EnvType as T,
} from "@platform/server";

/** The development fallback; refused in production (see `loadEnv`). */
export const DEV_JWT_SECRET = "dev-only-admissions-jwt-secret-change-me-0123456789";
export const MIN_JWT_SECRET_LENGTH = 32;

export const AdmissionsEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  ADMISSIONS_PORT: port(3001),
  /** `/metrics` (Prometheus) on a port of its own, never beside the API; 0 (default): off. */
  ADMISSIONS_METRICS_PORT: metricsPort(0),
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
  /** Account emails (password reset, verification, email change) per client IP per hour. */
  ADMISSIONS_ACCOUNT_EMAIL_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
  /** The same emails per address (reset requests) or per account (the others) per hour. */
  ADMISSIONS_ACCOUNT_EMAILS_PER_ACCOUNT: T.Integer({ minimum: 1, maximum: 1_000, default: 5 }),
  /** Uses of emailed account links, right or wrong, per client IP per hour. */
  ADMISSIONS_ACCOUNT_LINK_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 60 }),
  /** Uploaded documents (local disk), relative to the app folder like the SQLite file. */
  ADMISSIONS_DOCUMENTS_DIR: T.String({ default: "data/documents", minLength: 1 }),
  /**
   * Documents go to this S3-compatible bucket when set (shared by every replica), else to the
   * directory above. The four below are then required together with it; see `assertS3Config`.
   */
  ADMISSIONS_S3_BUCKET: T.Optional(T.String({ minLength: 1 })),
  /** An S3-compatible endpoint (MinIO, R2…); AWS's regional one when unset. */
  ADMISSIONS_S3_ENDPOINT: T.Optional(T.String({ pattern: "^https?://" })),
  ADMISSIONS_S3_REGION: T.String({ default: "us-east-1", minLength: 1 }),
  ADMISSIONS_S3_ACCESS_KEY_ID: T.Optional(T.String({ minLength: 1 })),
  ADMISSIONS_S3_SECRET_ACCESS_KEY: T.Optional(T.String({ minLength: 1 })),
  /** Document uploads per applicant per hour. */
  ADMISSIONS_UPLOAD_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
  ADMISSIONS_MAX_DOCUMENTS_PER_APPLICATION: T.Integer({ minimum: 1, maximum: 1_000, default: 20 }),
  /** The provider used when a payment request names none. */
  ADMISSIONS_PAYMENT_PROVIDER: oneOf(["manual", "stripe"], "manual"),
  ADMISSIONS_MANUAL_PAYMENT_TTL_DAYS: T.Integer({ minimum: 1, maximum: 365, default: 14 }),
  ADMISSIONS_MANUAL_PAYMENT_INSTRUCTIONS: T.String({
    minLength: 1,
    default:
      "Pay by bank transfer to the account shown on the admissions website, quoting the payment reference. Staff confirm receipt, usually within three working days.",
  }),
  /** Stripe is enabled when its secret key is set (the webhook secret is then required). */
  ADMISSIONS_STRIPE_SECRET_KEY: T.Optional(T.String({ minLength: 1 })),
  ADMISSIONS_STRIPE_WEBHOOK_SECRET: T.Optional(T.String({ minLength: 1 })),
  ADMISSIONS_STRIPE_API_BASE: T.String({
    default: "https://api.stripe.com",
    pattern: "^https?://",
  }),
  /**
   * Stripe lets a Checkout Session stay open 30 minutes to 24 hours after Stripe creates it;
   * 31 leaves a minute for the request to get there.
   */
  ADMISSIONS_STRIPE_CHECKOUT_TTL_MINUTES: T.Integer({ minimum: 31, maximum: 1_440, default: 60 }),
  /** The applicant-facing page Checkout returns to (`payment`, `result`, `session_id` added). */
  ADMISSIONS_PAYMENT_RETURN_URL: T.String({
    default: "http://localhost:3000/payments/return",
    pattern: "^https?://",
  }),
  /** Emails go out over SMTP when set (smtp:// or smtps://); else they are dropped. */
  SMTP_URL: T.Optional(T.String({ pattern: "^smtps?://" })),
  /**
   * Without SMTP_URL every email is dropped (one log line names it, never its content).
   * Production must be told so with true, or it refuses to start; never set with SMTP_URL.
   */
  ADMISSIONS_MAIL_DROP: T.Boolean({ default: false }),
  ADMISSIONS_MAIL_FROM: T.String({
    minLength: 3,
    default: "Admissions Office <admissions@localhost>",
  }),
  /**
   * The web portal's address: every link in an email points at one of its pages
   * (docs/admissions.md, "Links in emails").
   */
  ADMISSIONS_PORTAL_URL: T.String({ default: "http://localhost:3000", pattern: "^https?://" }),
  /**
   * Admins must enrol in MFA: until they do, every route but MFA enrolment and their own
   * sign-in answers 403 MFA_ENROLMENT_REQUIRED (docs/admissions.md, "Staff MFA").
   */
  ADMISSIONS_ADMIN_MFA_REQUIRED: T.Boolean({ default: false }),
  /**
   * The key TOTP secrets are encrypted with (AES-256-GCM, derived by HKDF). Unset: derived
   * from ADMISSIONS_JWT_SECRET; set it to that value before rotating the JWT secret.
   */
  ADMISSIONS_MFA_KEY: T.Optional(T.String({ minLength: MIN_JWT_SECRET_LENGTH })),
  /**
   * The Ed25519 key offer letters and receipts are signed with: PKCS#8 DER in base64
   * (`bun run signing-key` prints one). Unset: a key made per process, with a warning.
   */
  ADMISSIONS_SIGNING_KEY: T.Optional(
    T.String({ pattern: "^[A-Za-z0-9+/]+={0,2}$", minLength: 40 }),
  ),
  /** How long an erased applicant's payment records are kept before they are deleted. */
  ADMISSIONS_PAYMENT_RETENTION_YEARS: T.Integer({ minimum: 1, maximum: 30, default: 7 }),
  /** An offer's response deadline, in days, when the decision names none. */
  ADMISSIONS_OFFER_RESPONSE_DAYS: T.Integer({ minimum: 1, maximum: 365, default: 14 }),
  /** A condition's due date, in days from the offer, when the decision names none. */
  ADMISSIONS_CONDITION_DUE_DAYS: T.Integer({ minimum: 1, maximum: 730, default: 90 }),
  /** Applicants with an unsubmitted draft are emailed this many days before the deadline. */
  ADMISSIONS_DRAFT_REMINDER_DAYS: T.Integer({ minimum: 1, maximum: 60, default: 3 }),
  /** Reviewers are emailed this many days before an intake's decisions are due. */
  ADMISSIONS_DECISION_REMINDER_DAYS: T.Integer({ minimum: 1, maximum: 60, default: 3 }),
  /** Referees who have not answered are reminded this many days after the last email (3 times). */
  ADMISSIONS_REFERENCE_REMINDER_DAYS: T.Integer({ minimum: 1, maximum: 60, default: 7 }),
  /** Uses of referee links (opening, sending), right or wrong, per client IP per hour. */
  ADMISSIONS_REFERENCE_LINK_RATE_LIMIT: T.Integer({ minimum: 1, maximum: 1_000_000, default: 60 }),
  /**
   * Two weighted totals on one application further apart than this (points on the program's
   * rubric scale) request an extra review; a program may set its own. 0 (default): off.
   */
  ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD: T.Number({ minimum: 0, maximum: 100, default: 0 }),
  /** Admins' daily digest of new submissions goes out from this hour (UTC). */
  ADMISSIONS_DIGEST_HOUR_UTC: T.Integer({ minimum: 0, maximum: 23, default: 7 }),
  /** How often the background work runs (offer expiry, overdue conditions, reminders, email). */
  ADMISSIONS_JOBS_INTERVAL_MS: T.Integer({ minimum: 50, maximum: 3_600_000, default: 5_000 }),
  /** Delivery attempts per email before it is marked dead. */
  ADMISSIONS_EMAIL_MAX_ATTEMPTS: T.Integer({ minimum: 1, maximum: 50, default: 10 }),
  /** First retry delay of a failed email, doubled per attempt (capped at an hour). */
  ADMISSIONS_EMAIL_RETRY_SECONDS: T.Integer({ minimum: 1, maximum: 3_600, default: 30 }),
  /**
   * Webhook endpoints may be http:// and private or loopback addresses (receivers on
   * 127.0.0.1 in development and tests). Refused in production: it opens the server to SSRF.
   */
  ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS: T.Boolean({ default: false }),
  /**
   * The key webhook signing secrets are encrypted with (AES-256-GCM, derived by HKDF). Unset:
   * derived from ADMISSIONS_JWT_SECRET; set it to that value before rotating the JWT secret.
   */
  ADMISSIONS_WEBHOOK_KEY: T.Optional(T.String({ minLength: MIN_JWT_SECRET_LENGTH })),
  /** Delivery attempts per webhook before it is marked dead (backoff as for emails). */
  ADMISSIONS_WEBHOOK_MAX_ATTEMPTS: T.Integer({ minimum: 1, maximum: 50, default: 12 }),
  /** First retry delay of a failed webhook, doubled per attempt (capped at an hour). */
  ADMISSIONS_WEBHOOK_RETRY_SECONDS: T.Integer({ minimum: 1, maximum: 3_600, default: 30 }),
  /** How long a receiver has to answer one webhook POST. */
  ADMISSIONS_WEBHOOK_TIMEOUT_SECONDS: T.Integer({ minimum: 1, maximum: 60, default: 10 }),
});

export type AdmissionsEnv = typeof AdmissionsEnv.static;

/**
 * Parsed configuration. In production a default or short JWT secret is a start-up error:
 * anyone who knows the repository could otherwise mint admin tokens.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): AdmissionsEnv {
  const env = parseEnv(AdmissionsEnv, source);
  assertPaymentsConfig(env);
  assertS3Config(env);
  assertMailConfig(env);
  if (env.NODE_ENV === "production" && env.ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS) {
    throw new ConfigError(
      "Invalid configuration:\n  ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS: not in production (webhooks could reach the internal network)",
    );
  }
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

/**
 * Stripe half-configured would take money it could never hear about, and the secret key must
 * not travel in clear text: refuse to start.
 */
function assertPaymentsConfig(env: AdmissionsEnv): void {
  const problems: string[] = [];
  if (env.ADMISSIONS_STRIPE_SECRET_KEY && !env.ADMISSIONS_STRIPE_WEBHOOK_SECRET) {
    problems.push(
      "ADMISSIONS_STRIPE_WEBHOOK_SECRET: required when ADMISSIONS_STRIPE_SECRET_KEY is set",
    );
  }
  const plainHttp = env.ADMISSIONS_STRIPE_API_BASE.startsWith("http://");
  if (env.NODE_ENV === "production" && env.ADMISSIONS_STRIPE_SECRET_KEY && plainHttp) {
    problems.push("ADMISSIONS_STRIPE_API_BASE: production sends the secret key over https only");
  }
  if (env.ADMISSIONS_PAYMENT_PROVIDER === "stripe" && !env.ADMISSIONS_STRIPE_SECRET_KEY) {
    problems.push("ADMISSIONS_PAYMENT_PROVIDER: stripe needs ADMISSIONS_STRIPE_SECRET_KEY");
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

/**
 * No email is lost unnoticed: production sends it (SMTP_URL) or was told to drop it
 * (ADMISSIONS_MAIL_DROP=true); asking for both is a mistake, not a choice.
 */
function assertMailConfig(env: AdmissionsEnv): void {
  const problem =
    env.SMTP_URL && env.ADMISSIONS_MAIL_DROP
      ? "ADMISSIONS_MAIL_DROP: set together with SMTP_URL; set one of them"
      : env.NODE_ENV === "production" && !env.SMTP_URL && !env.ADMISSIONS_MAIL_DROP
        ? "SMTP_URL: production needs a mail transport (or ADMISSIONS_MAIL_DROP=true, which drops every email)"
        : null;
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
}

/** The S3 settings when documents go to a bucket, null for local disk. */
export function documentsS3(env: AdmissionsEnv) {
  const bucket = env.ADMISSIONS_S3_BUCKET;
  const accessKeyId = env.ADMISSIONS_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.ADMISSIONS_S3_SECRET_ACCESS_KEY;
  if (!bucket || !accessKeyId || !secretAccessKey) return null;
  const endpoint = env.ADMISSIONS_S3_ENDPOINT;
  return {
    bucket,
    region: env.ADMISSIONS_S3_REGION,
    accessKeyId,
    secretAccessKey,
    ...(endpoint ? { endpoint } : {}),
  };
}

/**
 * Half an S3 configuration would quietly keep documents on one replica's disk (no bucket) or
 * fail every upload (no credentials): refuse to start, naming what is missing.
 */
function assertS3Config(env: AdmissionsEnv): void {
  const credentials = ["ADMISSIONS_S3_ACCESS_KEY_ID", "ADMISSIONS_S3_SECRET_ACCESS_KEY"] as const;
  const problems: string[] = [];
  if (env.ADMISSIONS_S3_BUCKET) {
    for (const name of credentials) {
      if (!env[name]) problems.push(`${name}: required when ADMISSIONS_S3_BUCKET is set`);
    }
  } else {
    for (const name of [...credentials, "ADMISSIONS_S3_ENDPOINT"] as const) {
      if (env[name])
        problems.push(
          `${name}: set, but ADMISSIONS_S3_BUCKET is not (documents would stay on local disk)`,
        );
    }
  }
  if (env.NODE_ENV === "production" && env.ADMISSIONS_S3_ENDPOINT?.startsWith("http://")) {
    const host = new URL(env.ADMISSIONS_S3_ENDPOINT).hostname;
    if (!["localhost", "127.0.0.1", "[::1]"].includes(host)) {
      problems.push(
        "ADMISSIONS_S3_ENDPOINT: production sends documents over https only (or to loopback)",
      );
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}
