import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { codeAt, emailsTo, enrol, login, nextStep, sessionOf } from "./mfa-support.ts";
import { as, json, setupApp, signIn } from "./support.ts";

const ctx = await setupApp();
const { app } = ctx;
const SECURITY_LINK = `${DEFAULT_SETTINGS.portalUrl}/account/security`;

type Status = {
  enabled: boolean;
  enabledAt: string | null;
  enrolmentPending: boolean;
  recoveryCodesLeft: number;
  required: boolean;
};
const statusOf = async (session: Parameters<typeof as>[0]) =>
  (await (await app.handle(as(session, "GET", "/api/v1/mfa/"))).json()) as Status;

describe("enrolment", () => {
  test("a reviewer starts with MFA off", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    expect(await statusOf(reviewer)).toEqual({
      enabled: false,
      enabledAt: null,
      enrolmentPending: false,
      recoveryCodesLeft: 0,
      required: false,
    });
  });

  test("start: a base32 secret and its otpauth URI; the secret is not stored in clear", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const res = await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { secret: string; otpauthUri: string; expiresAt: string };
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(body.otpauthUri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(body.secret);
    expect(uri.searchParams.get("issuer")).toBe("Admissions");
    expect(decodeURIComponent(uri.pathname)).toContain(reviewer.user.email);
    expect(Date.parse(body.expiresAt) - ctx.clock.now()).toBe(15 * 60_000);
    const [row] = await ctx.db.run(
      (sql) => sql`SELECT secret FROM mfa_totp WHERE user_id = ${reviewer.user.id}`,
    );
    expect(String(row?.secret)).toStartWith("v1.");
    expect(String(row?.secret)).not.toContain(body.secret);
    expect((await statusOf(reviewer)).enrolmentPending).toBe(true);
  });

  test("confirm: a wrong code is refused, the right one turns MFA on with 10 recovery codes", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const start = await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"));
    const { secret } = (await start.json()) as { secret: string };
    const right = codeAt(secret, ctx.clock.now());
    const wrong = right === "000000" ? "111111" : "000000";
    const refused = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code: wrong }),
    );
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).code).toBe("CONFIRMATION_FAILED");
    expect((await statusOf(reviewer)).enabled).toBe(false);

    const res = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code: right }),
    );
    expect(res.status).toBe(200);
    const { recoveryCodes } = (await res.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    const status = await statusOf(reviewer);
    expect(status).toMatchObject({ enabled: true, enrolmentPending: false, recoveryCodesLeft: 10 });
    expect(status.enabledAt).toBe(new Date(ctx.clock.now()).toISOString());
    // Only digests are kept.
    const rows = await ctx.db.run(
      (sql) => sql`SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ${reviewer.user.id}`,
    );
    const stored = JSON.stringify(rows);
    for (const code of recoveryCodes) expect(stored).not.toContain(code);
  });

  test("a code from the step before or after is accepted (clock drift), two steps away is not", async () => {
    for (const [offset, accepted] of [
      [-30_000, true],
      [30_000, true],
      [-60_000, false],
      [60_000, false],
    ] as const) {
      const reviewer = await signIn(ctx, "reviewer");
      const start = await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"));
      const { secret } = (await start.json()) as { secret: string };
      const code = codeAt(secret, ctx.clock.now() + offset);
      const res = await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code }));
      expect(res.status).toBe(accepted ? 200 : 403);
    }
  });

  test("an enrolment not confirmed within 15 minutes has to start again", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const start = await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"));
    const { secret } = (await start.json()) as { secret: string };
    ctx.clock.advance(15 * 60_000);
    // The access token has lapsed too (15 minutes): the session cookie carries on.
    const late = await app.handle(
      json(
        "POST",
        "/api/v1/mfa/totp/confirm/",
        { code: codeAt(secret, ctx.clock.now()) },
        { cookie: reviewer.cookie, csrf: reviewer.csrfToken },
      ),
    );
    expect(late.status).toBe(409);
    expect((await problemOf(late)).code).toBe("MFA_ENROLMENT_NOT_STARTED");
    const status = await app.handle(
      json("GET", "/api/v1/mfa/", undefined, { cookie: reviewer.cookie }),
    );
    expect(((await status.json()) as Status).enrolmentPending).toBe(false);
  });

  test("starting again replaces an unconfirmed secret: the first one no longer confirms", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const first = (await (await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"))).json()) as {
      secret: string;
    };
    const second = (await (await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"))).json()) as {
      secret: string;
    };
    expect(second.secret).not.toBe(first.secret);
    const now = ctx.clock.now();
    if (codeAt(first.secret, now) !== codeAt(second.secret, now)) {
      const stale = await app.handle(
        as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code: codeAt(first.secret, now) }),
      );
      expect(stale.status).toBe(403);
    }
    const ok = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code: codeAt(second.secret, now) }),
    );
    expect(ok.status).toBe(200);
  });

  test("no second enrolment while MFA is on; confirm without an enrolment is refused", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const none = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code: "123456" }),
    );
    expect((await problemOf(none)).code).toBe("MFA_ENROLMENT_NOT_STARTED");
    await enrol(ctx, reviewer);
    const again = await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"));
    expect(again.status).toBe(409);
    expect((await problemOf(again)).code).toBe("MFA_ALREADY_ENABLED");
  });

  test("applicants have no MFA routes; anonymous callers get 401", async () => {
    const applicant = await signIn(ctx);
    for (const [method, path] of [
      ["GET", "/api/v1/mfa/"],
      ["POST", "/api/v1/mfa/totp/"],
    ] as const) {
      expect((await app.handle(as(applicant, method, path))).status).toBe(403);
      expect((await app.handle(json(method, path))).status).toBe(401);
    }
  });
});

describe("signing in with MFA", () => {
  test("the password alone is not enough: 401 MFA_REQUIRED and no session cookie", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    await enrol(ctx, reviewer);
    const res = await login(ctx, reviewer.user.email);
    expect(res.status).toBe(401);
    expect((await problemOf(res)).code).toBe("MFA_REQUIRED");
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("password + the current code: the usual login answer", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const res = await login(ctx, reviewer.user.email, { otp: codeAt(secret, ctx.clock.now()) });
    const session = await sessionOf(res);
    expect(Object.keys(session).sort()).toEqual(
      [
        "accessToken",
        "cookie",
        "csrfToken",
        "expiresIn",
        "refreshExpiresIn",
        "refreshToken",
        "tokenType",
        "user",
      ].sort(),
    );
    expect((await app.handle(as(session, "GET", "/api/v1/auth/me/"))).status).toBe(200);
    // The sign-in keeps working through refresh and the cookie.
    const refreshed = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: session.refreshToken }),
    );
    expect(refreshed.status).toBe(200);
    const byCookie = await app.handle(
      json("GET", "/api/v1/mfa/", undefined, { cookie: session.cookie }),
    );
    expect(byCookie.status).toBe(200);
  });

  test("a recovery code signs in once, and the account is told how many are left", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { recoveryCodes } = await enrol(ctx, reviewer);
    const code = recoveryCodes[3] ?? "";
    // Typed carelessly: upper case, no dashes.
    const res = await login(ctx, reviewer.user.email, {
      recoveryCode: code.replaceAll("-", "").toUpperCase(),
    });
    const session = await sessionOf(res);
    expect((await statusOf(session)).recoveryCodesLeft).toBe(9);
    const again = await login(ctx, reviewer.user.email, { recoveryCode: code });
    expect((await problemOf(again)).code).toBe("MFA_INVALID");
    const used = (await emailsTo(ctx, reviewer.user.email)).filter(
      (e) => e.event === "mfa.recovery_code_used",
    );
    expect(used).toHaveLength(1);
    expect(used[0]?.body).toContain("You have 9 left");
    expect(used[0]?.body).toContain(SECURITY_LINK);
  });

  test("applicants and staff without MFA sign in as before, an `otp` sent or not", async () => {
    const applicant = await signIn(ctx);
    expect((await login(ctx, applicant.user.email, { otp: "123456" })).status).toBe(200);
    const reviewer = await signIn(ctx, "reviewer");
    expect((await login(ctx, reviewer.user.email)).status).toBe(200);
  });

  test("a malformed otp is a 422, before anything is checked", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const res = await login(ctx, reviewer.user.email, { otp: "12ab56" });
    expect(res.status).toBe(422);
  });
});

describe("recovery codes and turning MFA off", () => {
  test("new recovery codes for a current code: the old ones stop working", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret, recoveryCodes } = await enrol(ctx, reviewer);
    const res = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/recovery-codes/", {
        code: codeAt(secret, ctx.clock.now()),
      }),
    );
    expect(res.status).toBe(200);
    const fresh = ((await res.json()) as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    const old = await login(ctx, reviewer.user.email, { recoveryCode: recoveryCodes[0] });
    expect((await problemOf(old)).code).toBe("MFA_INVALID");
    expect((await login(ctx, reviewer.user.email, { recoveryCode: fresh[0] })).status).toBe(200);
  });

  test("disable needs the password and a code; then the password alone signs in again", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const code = () => codeAt(secret, ctx.clock.now());
    const badPassword = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/disable/", { password: "wrong-password", code: code() }),
    );
    expect(badPassword.status).toBe(403);
    expect((await problemOf(badPassword)).code).toBe("CONFIRMATION_FAILED");
    const badCode = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/disable/", {
        password: "correct-horse-battery",
        code: code() === "000000" ? "111111" : "000000",
      }),
    );
    expect((await problemOf(badCode)).code).toBe("CONFIRMATION_FAILED");
    const res = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/disable/", {
        password: "correct-horse-battery",
        code: code(),
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as Status).enabled).toBe(false);
    expect((await login(ctx, reviewer.user.email)).status).toBe(200);
    const notOn = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/recovery-codes/", { code: code() }),
    );
    expect((await problemOf(notOn)).code).toBe("MFA_NOT_ENABLED");
  });

  test("disable with a recovery code (the authenticator is lost)", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { recoveryCodes } = await enrol(ctx, reviewer);
    const res = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/disable/", {
        password: "correct-horse-battery",
        code: recoveryCodes[9],
      }),
    );
    expect(res.status).toBe(200);
  });

  test("every change is emailed (text with a link to the security page) and audited", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/recovery-codes/", {
        code: codeAt(secret, ctx.clock.now()),
      }),
    );
    nextStep(ctx);
    await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/disable/", {
        password: "correct-horse-battery",
        code: codeAt(secret, ctx.clock.now()),
      }),
    );
    const emails = await emailsTo(ctx, reviewer.user.email);
    expect(emails.map((e) => e.event)).toEqual([
      "mfa.enabled",
      "mfa.recovery_codes_regenerated",
      "mfa.disabled",
    ]);
    for (const email of emails) {
      expect(email.body).toContain(SECURITY_LINK);
      expect(email.body).not.toContain(secret);
    }
    const audit = await ctx.db.run(
      (sql) => sql`SELECT action, actor_id, subject_id FROM audit_log
        WHERE subject_id = ${reviewer.user.id} ORDER BY created_at, id`,
    );
    expect(audit.map((row: { action: string }) => row.action)).toEqual([
      "mfa.enabled",
      "mfa.recovery_codes_regenerated",
      "mfa.disabled",
    ]);
  });
});

describe("enabling MFA ends the account's other sign-ins", () => {
  test("access token, refresh token and cookie of another sign-in stop working; this one goes on", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const other = await sessionOf(await login(ctx, reviewer.user.email));
    await enrol(ctx, reviewer);
    const bearer = await app.handle(as(other, "GET", "/api/v1/auth/me/"));
    expect(bearer.status).toBe(401);
    expect((await problemOf(bearer)).code).toBe("INVALID_TOKEN");
    const cookie = await app.handle(
      json("GET", "/api/v1/auth/me/", undefined, { cookie: other.cookie }),
    );
    expect(cookie.status).toBe(401);
    const refresh = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: other.refreshToken }),
    );
    expect(refresh.status).toBe(401);
    expect((await problemOf(refresh)).code).toBe("INVALID_REFRESH_TOKEN");
    // The sign-in that enabled it proved the code: it goes on, refresh included.
    expect((await app.handle(as(reviewer, "GET", "/api/v1/auth/me/"))).status).toBe(200);
    const mine = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: reviewer.refreshToken }),
    );
    expect(mine.status).toBe(200);
  });
});
