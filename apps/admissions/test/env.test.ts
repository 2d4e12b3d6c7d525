import { describe, expect, test } from "bun:test";
import { ConfigError } from "@platform/server";
import { appSettings } from "../src/config.ts";
import { DEV_JWT_SECRET, loadEnv } from "../src/env.ts";

/** Production with a mail transport: what the tests of other production rules start from. */
const PRODUCTION = { NODE_ENV: "production", SMTP_URL: "smtp://mail.example.org:587" };

describe("configuration", () => {
  test("defaults: port 3001, SQLite under ./data, migrations at start, 14-day sessions", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      ADMISSIONS_PORT: 3001,
      ADMISSIONS_SQLITE_FILE: "data/admissions.sqlite",
      ADMISSIONS_MIGRATE_ON_START: true,
      ADMISSIONS_SESSION_TTL_SECONDS: 14 * 86_400,
      ADMISSIONS_LOGIN_MAX_FAILURES: 5,
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  test("the transfer account: IBAN and holder together, check digits verified, read grouped", () => {
    const account = {
      ADMISSIONS_BANK_ACCOUNT_NAME: "University of Example",
      ADMISSIONS_BANK_IBAN: "gb33bukb20201555555555",
      ADMISSIONS_BANK_BIC: "BUKBGB22",
    };
    expect(appSettings(loadEnv(account)).payments.bankAccount).toEqual({
      accountName: "University of Example",
      iban: "GB33 BUKB 2020 1555 5555 55",
      bic: "BUKBGB22",
      bankName: null,
    });
    expect(appSettings(loadEnv({})).payments.bankAccount).toBeNull();
    // One digit wrong: the check digits no longer match.
    expect(() => loadEnv({ ...account, ADMISSIONS_BANK_IBAN: "GB33BUKB20201555555556" })).toThrow(
      /ADMISSIONS_BANK_IBAN: its check digits do not match/,
    );
    expect(() => loadEnv({ ADMISSIONS_BANK_IBAN: account.ADMISSIONS_BANK_IBAN })).toThrow(
      /ADMISSIONS_BANK_ACCOUNT_NAME: set together/,
    );
    expect(() => loadEnv({ ADMISSIONS_BANK_BIC: "BUKBGB22" })).toThrow(
      /ADMISSIONS_BANK_IBAN: required with/,
    );
    expect(() => loadEnv({ ...account, ADMISSIONS_BANK_BIC: "BUK" })).toThrow(ConfigError);
  });

  test("production refuses the development secret and short secrets", () => {
    for (const secret of [undefined, DEV_JWT_SECRET, "short-secret"]) {
      expect(() => loadEnv({ NODE_ENV: "production", ADMISSIONS_JWT_SECRET: secret })).toThrow(
        ConfigError,
      );
    }
    const ok = loadEnv({ ...PRODUCTION, ADMISSIONS_JWT_SECRET: "x".repeat(32) });
    expect(ok.ADMISSIONS_JWT_SECRET).toHaveLength(32);
  });

  test("production needs a mail transport, or to be told to drop every email; never both", () => {
    const production = { NODE_ENV: "production", ADMISSIONS_JWT_SECRET: "x".repeat(32) };
    expect(() => loadEnv(production)).toThrow(/SMTP_URL: production needs a mail transport/);
    expect(() => loadEnv({ ...production, ADMISSIONS_MAIL_DROP: "false" })).toThrow(ConfigError);
    expect(loadEnv({ ...production, SMTP_URL: "smtp://mail:587" }).SMTP_URL).toBe(
      "smtp://mail:587",
    );
    expect(loadEnv({ ...production, ADMISSIONS_MAIL_DROP: "true" }).ADMISSIONS_MAIL_DROP).toBe(
      true,
    );
    const both = { SMTP_URL: "smtp://mail:587", ADMISSIONS_MAIL_DROP: "true" };
    expect(() => loadEnv({ ...production, ...both })).toThrow(/ADMISSIONS_MAIL_DROP/);
    expect(() => loadEnv(both)).toThrow(/ADMISSIONS_MAIL_DROP/);
    // Development and tests keep working without either: the emails are dropped.
    expect(loadEnv({}).ADMISSIONS_MAIL_DROP).toBe(false);
  });

  test("bad values are reported, not guessed", () => {
    expect(() => loadEnv({ DATABASE_URL: "mysql://db/x" })).toThrow(/DATABASE_URL/);
    expect(() => loadEnv({ ADMISSIONS_PORT: "70000" })).toThrow(/ADMISSIONS_PORT/);
    expect(() => loadEnv({ ADMISSIONS_LOGIN_MAX_FAILURES: "0" })).toThrow(
      /ADMISSIONS_LOGIN_MAX_FAILURES/,
    );
    expect(loadEnv({ DATABASE_URL: "postgresql://u:p@h/db" }).DATABASE_URL).toBe(
      "postgresql://u:p@h/db",
    );
  });

  test("documents and payments: local disk under data/, manual payments unless Stripe is configured", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      ADMISSIONS_DOCUMENTS_DIR: "data/documents",
      ADMISSIONS_PAYMENT_PROVIDER: "manual",
      ADMISSIONS_STRIPE_API_BASE: "https://api.stripe.com",
    });
    expect(appSettings(env).payments?.stripe).toBeNull();
    const stripe = appSettings(
      loadEnv({
        ADMISSIONS_STRIPE_SECRET_KEY: "sk_test_x",
        ADMISSIONS_STRIPE_WEBHOOK_SECRET: "whsec_x",
        ADMISSIONS_STRIPE_API_BASE: "http://127.0.0.1:12111/",
        ADMISSIONS_STRIPE_CHECKOUT_TTL_MINUTES: "45",
      }),
    ).payments;
    expect(stripe?.stripe).toMatchObject({
      secretKey: "sk_test_x",
      apiBase: "http://127.0.0.1:12111",
    });
    expect(stripe?.checkoutTtlMs).toBe(45 * 60_000);
  });

  test("half-configured Stripe is refused at start", () => {
    expect(() => loadEnv({ ADMISSIONS_STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(
      /ADMISSIONS_STRIPE_WEBHOOK_SECRET/,
    );
    expect(() => loadEnv({ ADMISSIONS_PAYMENT_PROVIDER: "stripe" })).toThrow(
      /ADMISSIONS_STRIPE_SECRET_KEY/,
    );
    const stripe = { ADMISSIONS_STRIPE_SECRET_KEY: "sk", ADMISSIONS_STRIPE_WEBHOOK_SECRET: "wh" };
    const production = { ...PRODUCTION, ADMISSIONS_JWT_SECRET: "x".repeat(32) };
    expect(() =>
      loadEnv({ ...production, ...stripe, ADMISSIONS_STRIPE_API_BASE: "http://stripe.internal" }),
    ).toThrow(/ADMISSIONS_STRIPE_API_BASE/);
    expect(loadEnv({ ...production, ...stripe }).ADMISSIONS_STRIPE_SECRET_KEY).toBe("sk");
    expect(() => loadEnv({ ADMISSIONS_STRIPE_CHECKOUT_TTL_MINUTES: "10" })).toThrow(
      /ADMISSIONS_STRIPE_CHECKOUT_TTL_MINUTES/,
    );
  });
});
