import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { mfaDeps } from "../src/modules/mfa/service.ts";
import { codeAt, enrol, login, nextStep, sessionOf } from "./mfa-support.ts";
import { as, createProgram, json, PASSWORD, setupApp, signIn } from "./support.ts";

const ctx = await setupApp();
const { app } = ctx;
/** The default throttle: 5 failed logins per account in 15 minutes. */
const MAX_FAILURES = 5;

const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("MFA bypass attempts", () => {
  test("a replayed code is refused, at login and on the MFA routes", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const code = codeAt(secret, ctx.clock.now());
    await sessionOf(await login(ctx, reviewer.user.email, { otp: code }));
    const replay = await login(ctx, reviewer.user.email, { otp: code });
    expect(replay.status).toBe(401);
    expect((await problemOf(replay)).code).toBe("MFA_INVALID");
    const onRoute = await app.handle(as(reviewer, "POST", "/api/v1/mfa/recovery-codes/", { code }));
    expect((await problemOf(onRoute)).code).toBe("CONFIRMATION_FAILED");
  });

  test("a code from an earlier step is refused once a later one was used", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const earlier = codeAt(secret, ctx.clock.now() - 30_000);
    const current = codeAt(secret, ctx.clock.now());
    expect((await login(ctx, reviewer.user.email, { otp: current })).status).toBe(200);
    if (earlier !== current) {
      const res = await login(ctx, reviewer.user.email, { otp: earlier });
      expect((await problemOf(res)).code).toBe("MFA_INVALID");
    }
  });

  test("two logins racing with one code: exactly one gets in", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const code = codeAt(secret, ctx.clock.now());
    const results = await Promise.all(
      [1, 2, 3].map(() => login(ctx, reviewer.user.email, { otp: code })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  test("another account's code does not sign in", async () => {
    const victim = await signIn(ctx, "reviewer");
    const attacker = await signIn(ctx, "reviewer");
    await enrol(ctx, victim);
    const mine = await enrol(ctx, attacker);
    const code = codeAt(mine.secret, ctx.clock.now());
    const res = await login(ctx, victim.user.email, { otp: code });
    expect((await problemOf(res)).code).toBe("MFA_INVALID");
    const recovery = await login(ctx, victim.user.email, { recoveryCode: mine.recoveryCodes[0] });
    expect((await problemOf(recovery)).code).toBe("MFA_INVALID");
  });

  test("a used recovery code works nowhere again: login (any spelling) or disable", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { recoveryCodes } = await enrol(ctx, reviewer);
    const code = recoveryCodes[0] ?? "";
    expect((await login(ctx, reviewer.user.email, { recoveryCode: code })).status).toBe(200);
    for (const variant of [code, code.toUpperCase(), code.replaceAll("-", " ")]) {
      const res = await login(ctx, reviewer.user.email, { recoveryCode: variant });
      expect((await problemOf(res)).code).toBe("MFA_INVALID");
    }
    const disable = await app.handle(
      as(reviewer, "POST", "/api/v1/mfa/disable/", { password: PASSWORD, code }),
    );
    expect((await problemOf(disable)).code).toBe("CONFIRMATION_FAILED");
  });

  test("a refresh token from before MFA was enabled cannot mint access tokens", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const before = await sessionOf(await login(ctx, reviewer.user.email));
    await enrol(ctx, reviewer);
    const res = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: before.refreshToken }),
    );
    expect(res.status).toBe(401);
    // Ended for good: not a temporary refusal that a retry could get past.
    const again = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: before.refreshToken }),
    );
    expect(again.status).toBe(401);
  });

  test("a session cookie from before MFA was enabled is refused, reads and writes alike", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const before = await sessionOf(await login(ctx, reviewer.user.email));
    await enrol(ctx, reviewer);
    const read = await app.handle(
      json("GET", "/api/v1/mfa/", undefined, { cookie: before.cookie }),
    );
    expect(read.status).toBe(401);
    const write = await app.handle(
      json("POST", "/api/v1/mfa/totp/", undefined, {
        cookie: before.cookie,
        csrf: before.csrfToken,
      }),
    );
    expect(write.status).toBe(401);
  });

  test("failed codes count in the login throttle: brute force ends in 429, even with the right code", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const right = codeAt(secret, ctx.clock.now());
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await login(ctx, reviewer.user.email, { otp: otherCode(right) });
      expect(res.status).toBe(401);
    }
    const locked = await login(ctx, reviewer.user.email, { otp: right });
    expect(locked.status).toBe(429);
    expect((await problemOf(locked)).code).toBe("LOGIN_THROTTLED");
    expect(locked.headers.get("retry-after")).toBeTruthy();
  });

  test("being asked for the code is not a failure: the client may ask again with it", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    for (let i = 0; i < MAX_FAILURES + 2; i++) {
      expect((await login(ctx, reviewer.user.email)).status).toBe(401);
    }
    const res = await login(ctx, reviewer.user.email, { otp: codeAt(secret, ctx.clock.now()) });
    expect(res.status).toBe(200);
  });

  test("codes on the MFA routes are rate limited per account (429 after 10 in 15 minutes)", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    await app.handle(as(reviewer, "POST", "/api/v1/mfa/totp/"));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.handle(
        as(reviewer, "POST", "/api/v1/mfa/totp/confirm/", { code: "000000" }),
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 403 || s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("no enumeration through MFA", () => {
  test("a wrong password with a valid code says nothing of MFA; an unknown email answers alike", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const { secret } = await enrol(ctx, reviewer);
    const code = codeAt(secret, ctx.clock.now());
    const wrongPassword = await ctx.app.handle(
      json("POST", "/api/v1/auth/login/", {
        email: reviewer.user.email,
        password: "wrong-password",
        otp: code,
      }),
    );
    const unknown = await ctx.app.handle(
      json("POST", "/api/v1/auth/login/", {
        email: "nobody-here@example.org",
        password: PASSWORD,
        otp: code,
      }),
    );
    for (const res of [wrongPassword, unknown]) {
      expect(res.status).toBe(401);
      const body = await problemOf(res);
      expect(body.code).toBe("INVALID_CREDENTIALS");
      expect(body.detail).toBe("The email or password is incorrect");
    }
    // The code was not spent by those attempts.
    expect((await login(ctx, reviewer.user.email, { otp: code })).status).toBe(200);
  });
});

describe("CSRF on cookie sessions", () => {
  test.each([
    ["POST", "/api/v1/mfa/totp/", undefined],
    ["POST", "/api/v1/mfa/totp/confirm/", { code: "123456" }],
    ["POST", "/api/v1/mfa/disable/", { password: PASSWORD, code: "123456" }],
    ["POST", "/api/v1/mfa/recovery-codes/", { code: "123456" }],
  ] as const)(
    "%s %s with the cookie alone → 403, with a wrong token → 403",
    async (method, path, body) => {
      const reviewer = await signIn(ctx, "reviewer");
      const missing = await app.handle(json(method, path, body, { cookie: reviewer.cookie }));
      expect(missing.status).toBe(403);
      expect((await problemOf(missing)).code).toBe("CSRF_TOKEN_MISSING");
      const wrong = await app.handle(
        json(method, path, body, { cookie: reviewer.cookie, csrf: "forged-token" }),
      );
      expect((await problemOf(wrong)).code).toBe("CSRF_TOKEN_INVALID");
      const status = await app.handle(
        json("GET", "/api/v1/mfa/", undefined, { cookie: reviewer.cookie }),
      );
      expect(((await status.json()) as { enrolmentPending: boolean }).enrolmentPending).toBe(false);
    },
  );
});

describe("the secret at rest", () => {
  test("sealed for its account: another key or another user id cannot open it", async () => {
    const base = {
      db: ctx.db,
      store: ctx.store,
      now: ctx.clock.now,
      sessionTtlMs: 1,
      adminRequired: false,
      portalUrl: "",
    };
    const box = mfaDeps({ ...base, keyMaterial: "k".repeat(40) }).box;
    const other = mfaDeps({ ...base, keyMaterial: "x".repeat(40) }).box;
    const sealed = await box.seal("user-a", "JBSWY3DPEHPK3PXP");
    expect(await box.open("user-a", sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(box.open("user-b", sealed)).rejects.toThrow();
    expect(other.open("user-a", sealed)).rejects.toThrow();
    const twice = await box.seal("user-a", "JBSWY3DPEHPK3PXP");
    expect(twice).not.toBe(sealed);
  });
});

const strict = await setupApp({ adminMfaRequired: true });

describe("ADMISSIONS_ADMIN_MFA_REQUIRED", () => {
  test("an admin without MFA signs in, but admin routes answer 403 until they enrol", async () => {
    const admin = await signIn(strict, "admin");
    const refused = await strict.app.handle(as(admin, "GET", "/api/v1/staff/users/"));
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).code).toBe("MFA_ENROLMENT_REQUIRED");
    const write = await strict.app.handle(
      as(admin, "POST", "/api/v1/catalog/programs/", { code: "X-1", name: "x" }),
    );
    expect((await problemOf(write)).code).toBe("MFA_ENROLMENT_REQUIRED");
    // Their own account and enrolment stay open; public pages see them as the public.
    expect((await strict.app.handle(as(admin, "GET", "/api/v1/auth/me/"))).status).toBe(200);
    const status = await strict.app.handle(as(admin, "GET", "/api/v1/mfa/"));
    expect(((await status.json()) as { required: boolean }).required).toBe(true);
    expect((await strict.app.handle(as(admin, "GET", "/api/v1/catalog/programs/"))).status).toBe(
      200,
    );
    // Enrolled: the same sign-in goes on, with every admin route.
    await enrol(strict, admin);
    expect((await strict.app.handle(as(admin, "GET", "/api/v1/staff/users/"))).status).toBe(200);
    await createProgram(strict, admin);
  });

  test("the refresh token still works before enrolment (it is how the admin keeps signed in)", async () => {
    const admin = await signIn(strict, "admin");
    const res = await strict.app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: admin.refreshToken }),
    );
    expect(res.status).toBe(200);
  });

  test("reviewers are not bound by it; without the setting admins are not either", async () => {
    const reviewer = await signIn(strict, "reviewer");
    expect((await strict.app.handle(as(reviewer, "GET", "/api/v1/applications/"))).status).toBe(
      200,
    );
    const admin = await signIn(ctx, "admin");
    expect((await app.handle(as(admin, "GET", "/api/v1/staff/users/"))).status).toBe(200);
  });

  test("turning MFA off again closes the admin routes again", async () => {
    const admin = await signIn(strict, "admin");
    const { secret } = await enrol(strict, admin);
    const off = await strict.app.handle(
      as(admin, "POST", "/api/v1/mfa/disable/", {
        password: PASSWORD,
        code: codeAt(secret, strict.clock.now()),
      }),
    );
    expect(off.status).toBe(200);
    nextStep(strict);
    const res = await strict.app.handle(as(admin, "GET", "/api/v1/staff/users/"));
    expect((await problemOf(res)).code).toBe("MFA_ENROLMENT_REQUIRED");
  });
});
