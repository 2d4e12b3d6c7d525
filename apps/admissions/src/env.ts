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

const perHour = (fallback: number, description: string) =>
  T.Integer({ minimum: 1, maximum: 1_000_000, default: fallback, description });
const singleLine = (maxLength: number, description: string) =>
  T.String({ minLength: 1, maxLength, pattern: "^[^\\u0000-\\u001f\\u007f]+$", description });
const days = (fallback: number, maximum: number, description: string) =>
  T.Integer({ minimum: 1, maximum, default: fallback, description });

export const AdmissionsEnv = T.Object({
  ...commonEnv,
  ...redisEnv,
  ADMISSIONS_PORT: port(3001, "Port the admissions API listens on."),
  ADMISSIONS_METRICS_PORT: metricsPort(0),
  DATABASE_URL: T.Optional(
    T.String({
      pattern: "^postgres(ql)?://",
      description: "`postgres://…`: PostgreSQL; unset: the SQLite file `ADMISSIONS_SQLITE_FILE`.",
    }),
  ),
  ADMISSIONS_SQLITE_FILE: T.String({
    default: "data/admissions.sqlite",
    minLength: 1,
    description: "The SQLite database, relative to `apps/admissions` (its folder is created).",
  }),
  ADMISSIONS_MIGRATE_ON_START: T.Boolean({
    default: true,
    description:
      "Apply pending migrations at start-up (`bun run migrate` does it on demand; on Kubernetes a Job does, and the replicas wait with `bun run migrate --wait`).",
  }),
  ADMISSIONS_JWT_SECRET: T.String({
    default: DEV_JWT_SECRET,
    minLength: 1,
    description: `HS256 key of the access tokens. With \`NODE_ENV=production\` the app refuses to start unless it is set, not this development default, and at least ${MIN_JWT_SECRET_LENGTH} characters.`,
  }),
  ADMISSIONS_SESSION_TTL_SECONDS: T.Integer({
    minimum: 300,
    maximum: 90 * 86_400,
    default: 14 * 86_400,
    description:
      "Lifetime of a sign-in (14 days by default): its session cookie and refresh tokens. Refreshing never extends it.",
  }),
  ADMISSIONS_LOGIN_MAX_FAILURES: T.Integer({
    minimum: 1,
    maximum: 1_000,
    default: 5,
    description:
      "Failed logins per account in the window; past it, 429 `LOGIN_THROTTLED` even with the right password.",
  }),
  ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP: T.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 50,
    description: "Failed logins per client IP (IPv6: per /64) in the window.",
  }),
  ADMISSIONS_LOGIN_WINDOW_SECONDS: T.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 900,
    description: "The sliding window of both login counts.",
  }),
  ADMISSIONS_REGISTER_RATE_LIMIT: perHour(20, "Registrations per client IP per hour."),
  ADMISSIONS_ACCOUNT_EMAIL_RATE_LIMIT: perHour(
    20,
    "Account emails (password reset, verification and email-change links) per client IP per hour.",
  ),
  ADMISSIONS_ACCOUNT_EMAILS_PER_ACCOUNT: T.Integer({
    minimum: 1,
    maximum: 1_000,
    default: 5,
    description:
      "The same emails per address (reset requests: silently) or per account (the others: 429) per hour.",
  }),
  ADMISSIONS_ACCOUNT_LINK_RATE_LIMIT: perHour(
    60,
    "Uses of emailed account links, right or wrong, per client IP per hour.",
  ),
  ADMISSIONS_DOCUMENTS_DIR: T.String({
    default: "data/documents",
    minLength: 1,
    description:
      "Where uploaded documents are stored on local disk, relative to `apps/admissions` (the folder is created).",
  }),
  // The four below are required together with the bucket; see `assertS3Config`.
  ADMISSIONS_S3_BUCKET: T.Optional(
    T.String({
      minLength: 1,
      description:
        "Documents go to this S3-compatible bucket (shared by every replica) instead of `ADMISSIONS_DOCUMENTS_DIR`; needs the two keys below.",
    }),
  ),
  ADMISSIONS_S3_ENDPOINT: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "An S3-compatible endpoint (MinIO, R2…), path-style addressing; unset: AWS's regional one. Production takes `https://` (or loopback) only.",
    }),
  ),
  ADMISSIONS_S3_REGION: T.String({
    default: "us-east-1",
    minLength: 1,
    description: "The bucket's region.",
  }),
  ADMISSIONS_S3_ACCESS_KEY_ID: T.Optional(
    T.String({
      minLength: 1,
      description:
        "The bucket's access key: required with `ADMISSIONS_S3_BUCKET`, refused without it (start-up error).",
    }),
  ),
  ADMISSIONS_S3_SECRET_ACCESS_KEY: T.Optional(
    T.String({ minLength: 1, description: "Its secret, on the same terms." }),
  ),
  ADMISSIONS_UPLOAD_RATE_LIMIT: T.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 60,
    description: "Document uploads per applicant per hour.",
  }),
  ADMISSIONS_MAX_DOCUMENTS_PER_APPLICATION: T.Integer({
    minimum: 1,
    maximum: 1_000,
    default: 20,
    description: "Documents one application may hold.",
  }),
  ADMISSIONS_PAYMENT_PROVIDER: oneOf(["manual", "stripe"], "manual", {
    description: "The provider used when a payment request names none.",
  }),
  ADMISSIONS_MANUAL_PAYMENT_TTL_DAYS: days(
    14,
    365,
    "How long a manual (bank transfer) payment reference stays payable.",
  ),
  ADMISSIONS_MANUAL_PAYMENT_INSTRUCTIONS: T.String({
    minLength: 1,
    default:
      "Pay by bank transfer, quoting the payment reference so we can match your payment. We confirm receipt, usually within three working days.",
    description:
      "Shown to applicants with each manual payment, beside the account below and the payment's reference.",
  }),
  // The four below are the account a bank transfer goes to; see `assertBankAccount`.
  ADMISSIONS_BANK_ACCOUNT_NAME: T.Optional(
    singleLine(140, "Who transfers are paid to (the account holder); required with the IBAN."),
  ),
  ADMISSIONS_BANK_IBAN: T.Optional(
    T.String({
      pattern: "^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{10,40}$",
      description:
        "The account's IBAN (spaces allowed; its check digits are verified at start-up). Unset: the portal shows no account and tells applicants to contact the office.",
    }),
  ),
  ADMISSIONS_BANK_BIC: T.Optional(
    T.String({
      pattern: "^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$",
      description: "The bank's BIC (SWIFT code), for transfers from abroad.",
    }),
  ),
  ADMISSIONS_BANK_NAME: T.Optional(singleLine(140, "The bank's name, shown beside the account.")),
  ADMISSIONS_STRIPE_SECRET_KEY: T.Optional(
    T.String({
      minLength: 1,
      description:
        "Stripe's secret key; set, Stripe Checkout is enabled (and the webhook secret is required).",
    }),
  ),
  ADMISSIONS_STRIPE_WEBHOOK_SECRET: T.Optional(
    T.String({
      minLength: 1,
      description: "Signing secret of the Stripe webhook endpoint (`whsec_…`).",
    }),
  ),
  ADMISSIONS_STRIPE_API_BASE: T.String({
    default: "https://api.stripe.com",
    pattern: "^https?://",
    description:
      "Stripe's API address (the tests point it at a local stand-in); production sends the secret key over `https` only.",
  }),
  // Stripe lets a Checkout Session stay open 30 minutes to 24 hours after Stripe creates it;
  // 31 leaves a minute for the request to get there.
  ADMISSIONS_STRIPE_CHECKOUT_TTL_MINUTES: T.Integer({
    minimum: 31,
    maximum: 1_440,
    default: 60,
    description: "How long a Checkout Session stays open.",
  }),
  ADMISSIONS_PAYMENT_RETURN_URL: T.String({
    default: "http://localhost:3000/payments/return",
    pattern: "^https?://",
    description:
      "The applicant-facing page Stripe Checkout returns to (`payment`, `result` and `session_id` are added).",
  }),
  SMTP_URL: T.Optional(
    T.String({
      pattern: "^smtps?://",
      description:
        "`smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`: emails go out with nodemailer; unset, they are dropped (see `ADMISSIONS_MAIL_DROP`).",
    }),
  ),
  ADMISSIONS_MAIL_DROP: T.Boolean({
    default: false,
    description:
      "`true`: no `SMTP_URL`, and every email is dropped on purpose: marked sent, one log line naming its template, id and the recipient's domain, never its content. Production without `SMTP_URL` refuses to start unless this is `true`; refused together with `SMTP_URL`.",
  }),
  ADMISSIONS_MAIL_FROM: T.String({
    minLength: 3,
    default: "Admissions Office <admissions@localhost>",
    description: "The emails' From address; the ORGANIZER of interview invitations (`.ics`).",
  }),
  ADMISSIONS_PORTAL_URL: T.String({
    default: "http://localhost:3000",
    pattern: "^https?://",
    description:
      "The web portal's address: every link in an email is this followed by a portal page's path ([Links in emails](docs/admissions/accounts.md#links-in-emails)).",
  }),
  ADMISSIONS_ADMIN_MFA_REQUIRED: T.Boolean({
    default: false,
    description:
      "Admins must enrol in MFA: until they do, every route but MFA enrolment and their own sign-in answers 403 `MFA_ENROLMENT_REQUIRED` ([Staff MFA](docs/admissions/accounts.md#staff-mfa)).",
  }),
  ADMISSIONS_MFA_KEY: T.Optional(
    T.String({
      minLength: MIN_JWT_SECRET_LENGTH,
      description:
        "The key TOTP secrets are encrypted with (AES-256-GCM, the key derived by HKDF-SHA-256). Unset: derived from `ADMISSIONS_JWT_SECRET`; set it to that value before rotating the JWT secret.",
    }),
  ),
  ADMISSIONS_SIGNING_KEY: T.Optional(
    T.String({
      pattern: "^[A-Za-z0-9+/]+={0,2}$",
      minLength: 40,
      description:
        "The Ed25519 private key offer letters and receipts are signed with: PKCS#8 DER in base64 (`bun run signing-key` in `apps/admissions` prints one). Unset: a key made per process, with a warning ([Signed letters and receipts](docs/admissions/signed-documents.md)).",
    }),
  ),
  ADMISSIONS_PAYMENT_RETENTION_YEARS: T.Integer({
    minimum: 1,
    maximum: 30,
    default: 7,
    description:
      "Years an erased applicant's payment records are kept before the background pass deletes them.",
  }),
  ADMISSIONS_OFFER_RESPONSE_DAYS: days(
    14,
    365,
    "An offer's response deadline, in days, when the decision names none.",
  ),
  ADMISSIONS_CONDITION_DUE_DAYS: days(
    90,
    730,
    "A condition's due date, in days from the offer, when the decision names none.",
  ),
  ADMISSIONS_DRAFT_REMINDER_DAYS: days(
    3,
    60,
    "Applicants with an unsubmitted draft are emailed this many days before their intake's deadline.",
  ),
  ADMISSIONS_DECISION_REMINDER_DAYS: days(
    3,
    60,
    "Reviewers are emailed this many days before an intake's decisions are due.",
  ),
  ADMISSIONS_REFERENCE_REMINDER_DAYS: days(
    7,
    60,
    "Referees who have not answered are reminded this many days after the last email, 3 times at most.",
  ),
  ADMISSIONS_REFERENCE_LINK_RATE_LIMIT: perHour(
    60,
    "Uses of referee links (opening, sending), right or wrong, per client IP per hour.",
  ),
  ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD: T.Number({
    minimum: 0,
    maximum: 100,
    default: 0,
    description:
      "Two weighted totals on one application further apart than this (points on the program's rubric scale) request an extra review; a program may set its own. `0`: off.",
  }),
  ADMISSIONS_DIGEST_HOUR_UTC: T.Integer({
    minimum: 0,
    maximum: 23,
    default: 7,
    description:
      "Admins' daily digest of the previous day's submissions goes out from this hour (UTC).",
  }),
  ADMISSIONS_JOBS_INTERVAL_MS: T.Integer({
    minimum: 50,
    maximum: 3_600_000,
    default: 5_000,
    description:
      "How often the in-process background work runs: offer expiry, overdue conditions, reminders and digests, email and webhook delivery.",
  }),
  ADMISSIONS_EMAIL_MAX_ATTEMPTS: T.Integer({
    minimum: 1,
    maximum: 50,
    default: 10,
    description: "Delivery attempts per email before it is marked `dead` (kept, not lost).",
  }),
  ADMISSIONS_EMAIL_RETRY_SECONDS: T.Integer({
    minimum: 1,
    maximum: 3_600,
    default: 30,
    description: "First retry delay of a failed email, doubled per attempt, capped at an hour.",
  }),
  ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS: T.Boolean({
    default: false,
    description:
      "Webhook endpoints may be `http://` and private or loopback addresses (receivers on 127.0.0.1 in development and tests). Refused with `NODE_ENV=production`: it opens the server to SSRF.",
  }),
  ADMISSIONS_WEBHOOK_KEY: T.Optional(
    T.String({
      minLength: MIN_JWT_SECRET_LENGTH,
      description:
        "The key webhook signing secrets are encrypted with at rest (AES-256-GCM, derived by HKDF). Unset: derived from `ADMISSIONS_JWT_SECRET`; set it to that value before rotating the JWT secret.",
    }),
  ),
  ADMISSIONS_WEBHOOK_MAX_ATTEMPTS: T.Integer({
    minimum: 1,
    maximum: 50,
    default: 12,
    description:
      "Delivery attempts per webhook before it is marked `dead` (backoff as for emails).",
  }),
  ADMISSIONS_WEBHOOK_RETRY_SECONDS: T.Integer({
    minimum: 1,
    maximum: 3_600,
    default: 30,
    description: "First retry delay of a failed webhook, doubled per attempt, capped at an hour.",
  }),
  ADMISSIONS_WEBHOOK_TIMEOUT_SECONDS: T.Integer({
    minimum: 1,
    maximum: 60,
    default: 10,
    description: "How long a receiver has to answer one webhook POST.",
  }),
});

export type AdmissionsEnv = typeof AdmissionsEnv.static;

/** An IBAN as people read it: upper case, in groups of four. */
export const groupedIban = (iban: string) =>
  iban
    .replaceAll(" ", "")
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, "$1 ");

/** ISO 13616's check: the IBAN with its first four characters moved last, as digits, mod 97 is 1. */
export function ibanChecks(iban: string): boolean {
  const compact = iban.replaceAll(" ", "").toUpperCase();
  const digits = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (c) =>
    String(c.charCodeAt(0) - 55),
  );
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/**
 * A transfer account half-given, or with an IBAN whose check digits fail, would send applicants'
 * money nowhere: refuse to start.
 */
function assertBankAccount(env: AdmissionsEnv): void {
  const iban = env.ADMISSIONS_BANK_IBAN;
  const problem =
    iban && !ibanChecks(iban)
      ? "ADMISSIONS_BANK_IBAN: its check digits do not match (a mistyped IBAN)"
      : Boolean(iban) !== Boolean(env.ADMISSIONS_BANK_ACCOUNT_NAME)
        ? "ADMISSIONS_BANK_ACCOUNT_NAME: set together with ADMISSIONS_BANK_IBAN"
        : !iban && (env.ADMISSIONS_BANK_BIC || env.ADMISSIONS_BANK_NAME)
          ? "ADMISSIONS_BANK_IBAN: required with ADMISSIONS_BANK_BIC or ADMISSIONS_BANK_NAME"
          : null;
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
}

/**
 * Parsed configuration. In production a default or short JWT secret is a start-up error:
 * anyone who knows the repository could otherwise mint admin tokens.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): AdmissionsEnv {
  const env = parseEnv(AdmissionsEnv, source);
  assertPaymentsConfig(env);
  assertBankAccount(env);
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
