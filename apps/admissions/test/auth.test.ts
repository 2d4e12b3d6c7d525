import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { REGISTRATION_ACCEPTED } from "../src/modules/auth/service.ts";
import { findUserByEmail } from "../src/modules/users/service.ts";
import {
  as,
  json,
  logIn,
  PASSWORD,
  sessionCookieOf,
  setupApp,
  signIn,
  uniqueEmail,
} from "./support.ts";

const ctx = await setupApp();
const { app } = ctx;

const register = (body: unknown) => app.handle(json("POST", "/api/v1/auth/register/", body));

/** The outbox's emails to `to`, oldest first. */
const emailsTo = (to: string) =>
  ctx.db.run(
    (sql) => sql`SELECT event, body, links FROM email_outbox WHERE to_address = ${to}
      ORDER BY created_at, id`,
  ) as Promise<{ event: string; body: string; links: string | null }[]>;

/** An answer as a client sees it, less what differs per request (its id, the quota left). */
async function answerOf(res: Response) {
  const headers = [...res.headers.entries()].filter(
    ([name]) => !["x-request-id", "ratelimit"].includes(name),
  );
  return { status: res.status, headers, body: await res.text() };
}

describe("registration", () => {
  test("creates an applicant with an argon2id hash and emails the verification link", async () => {
    const email = uniqueEmail("New.Person").toUpperCase();
    const res = await register({ email, password: PASSWORD, fullName: "  New Person " });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ detail: REGISTRATION_ACCEPTED });
    const stored = await findUserByEmail(ctx.db, email);
    expect(stored).toMatchObject({
      email: email.toLowerCase(),
      fullName: "New Person",
      role: "applicant",
      active: true,
    });
    expect(stored?.passwordHash).toStartWith("$argon2id$");
    expect(await Bun.password.verify(PASSWORD, stored?.passwordHash ?? "")).toBe(true);
    expect((await emailsTo(email.toLowerCase())).map((e) => e.event)).toEqual([
      "email_verification",
    ]);
    await logIn(ctx, email);
  });

  test("a taken address (in any case) answers exactly as a new one, changes nothing, and tells its owner", async () => {
    const owner = await signIn(ctx);
    const fresh = await register({ email: uniqueEmail(), password: PASSWORD, fullName: "A" });
    const taken = await register({
      email: owner.user.email.toUpperCase(),
      password: "a-different-password",
      fullName: "Someone Else",
    });
    expect(await answerOf(taken)).toEqual(await answerOf(fresh));
    // Nothing changed: the owner's name and password stand; the other password opens nothing.
    expect(await findUserByEmail(ctx.db, owner.user.email)).toMatchObject({
      fullName: owner.user.fullName,
    });
    await logIn(ctx, owner.user.email);
    const other = await app.handle(
      json("POST", "/api/v1/auth/login/", {
        email: owner.user.email,
        password: "a-different-password",
      }),
    );
    expect(other.status).toBe(401);
    // The owner is told, with the way in: sign in, or choose a new password.
    const [notice, ...more] = (await emailsTo(owner.user.email)).filter(
      (e) => e.event === "account_exists",
    );
    expect(more).toEqual([]);
    expect(notice?.body).toContain("You already have an account");
    expect(JSON.parse(notice?.links ?? "[]")).toEqual([
      "http://localhost:3000/portal/login",
      "http://localhost:3000/account/forgot-password",
    ]);
  });

  test("the owner is told at most the address's hourly quota of account emails; the answer stays the same", async () => {
    const owner = await signIn(ctx);
    const answers = new Set<string>();
    for (let i = 0; i < DEFAULT_SETTINGS.accountLimits.emailsPerAccountPerHour + 3; i++) {
      const res = await register({ email: owner.user.email, password: PASSWORD, fullName: "A" });
      answers.add(JSON.stringify({ status: res.status, body: await res.text() }));
    }
    expect(answers.size).toBe(1);
    const notices = (await emailsTo(owner.user.email)).filter((e) => e.event === "account_exists");
    expect(notices).toHaveLength(DEFAULT_SETTINGS.accountLimits.emailsPerAccountPerHour);
  });

  test("a disabled account's owner is not emailed (as for a reset request), the answer is the same", async () => {
    const owner = await signIn(ctx);
    await ctx.db.run((sql) => sql`UPDATE users SET active = FALSE WHERE id = ${owner.user.id}`);
    const res = await register({ email: owner.user.email, password: PASSWORD, fullName: "A" });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ detail: REGISTRATION_ACCEPTED });
    expect((await emailsTo(owner.user.email)).map((e) => e.event)).not.toContain("account_exists");
  });

  test.each([
    ["a bad email", { email: "not-an-email", password: PASSWORD, fullName: "A" }, "/body/email"],
    [
      "a short password",
      { email: uniqueEmail(), password: "short", fullName: "A" },
      "/body/password",
    ],
    ["an empty name", { email: uniqueEmail(), password: PASSWORD, fullName: "" }, "/body/fullName"],
    ["no password", { email: uniqueEmail(), fullName: "A" }, "/body/password"],
  ])("%s is a 422 naming the field", async (_, body, path) => {
    const res = await register(body);
    expect(res.status).toBe(422);
    const problem = await problemOf(res);
    expect(problem.code).toBe("VALIDATION_FAILED");
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  test("a client cannot register itself as staff: role is not an input", async () => {
    const email = uniqueEmail();
    const res = await register({ email, password: PASSWORD, fullName: "A", role: "admin" });
    expect(res.status).toBe(202);
    expect((await findUserByEmail(ctx.db, email))?.role).toBe("applicant");
  });
});

describe("login", () => {
  test("answers both tokens, a CSRF token and the user, and sets the secure session cookie", async () => {
    const session = await signIn(ctx, "reviewer");
    expect(session.accessToken.split(".")).toHaveLength(3);
    expect(session.refreshToken.length).toBeGreaterThanOrEqual(43);
    expect(session.user.role).toBe("reviewer");

    const res = await app.handle(
      json("POST", "/api/v1/auth/login/", { email: session.user.email, password: PASSWORD }),
    );
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ tokenType: "Bearer", expiresIn: 900 });
    const cookie = res.headers.getSetCookie()[0] ?? "";
    expect(cookie).toStartWith("__Host-admissions_session=");
    for (const attribute of ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"]) {
      expect(cookie).toContain(attribute);
    }
    expect(cookie).not.toContain("Domain");
  });

  test("the access token expires after 15 minutes", async () => {
    const session = await signIn(ctx);
    const [, payload = ""] = session.accessToken.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { exp: number };
    expect(claims.exp - Math.floor(ctx.clock.now() / 1000)).toBe(900);
  });

  test("the email is matched in any case", async () => {
    const session = await signIn(ctx);
    await logIn(ctx, session.user.email.toUpperCase());
  });

  test("a wrong password and an unknown email get the same 401 INVALID_CREDENTIALS", async () => {
    const session = await signIn(ctx);
    for (const body of [
      { email: session.user.email, password: "wrong-password-123" },
      { email: uniqueEmail("nobody"), password: PASSWORD },
    ]) {
      const res = await app.handle(json("POST", "/api/v1/auth/login/", body));
      expect(res.status).toBe(401);
      const problem = await problemOf(res);
      expect(problem.code).toBe("INVALID_CREDENTIALS");
      expect(problem.detail).toBe("The email or password is incorrect");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  test("a disabled account is refused with 403 ACCOUNT_DISABLED, only with the right password", async () => {
    const session = await signIn(ctx);
    await ctx.db.run(
      (sql) => sql`UPDATE users SET active = ${false} WHERE id = ${session.user.id}`,
    );
    const res = await app.handle(
      json("POST", "/api/v1/auth/login/", { email: session.user.email, password: PASSWORD }),
    );
    expect((await problemOf(res)).code).toBe("ACCOUNT_DISABLED");
    const me = await app.handle(as(session, "GET", "/api/v1/auth/me/"));
    expect(me.status).toBe(401);
  });
});

describe("me, with either credential", () => {
  test("the bearer token alone and the cookie alone both authenticate", async () => {
    const session = await signIn(ctx);
    const byToken = await app.handle(as(session, "GET", "/api/v1/auth/me/"));
    const byCookie = await app.handle(
      json("GET", "/api/v1/auth/me/", undefined, { cookie: session.cookie }),
    );
    expect(byToken.status).toBe(200);
    expect(byCookie.status).toBe(200);
    expect(await byToken.json()).toEqual(await byCookie.json());
  });

  test("no credential is a 401 with WWW-Authenticate", async () => {
    const res = await app.handle(json("GET", "/api/v1/auth/me"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    expect((await problemOf(res)).code).toBe("UNAUTHORIZED");
  });

  test("the CSRF token can be fetched again with the cookie", async () => {
    const session = await signIn(ctx);
    const res = await app.handle(
      json("GET", "/api/v1/auth/csrf/", undefined, { cookie: session.cookie }),
    );
    expect(await res.json()).toEqual({ csrfToken: session.csrfToken });
    expect((await app.handle(json("GET", "/api/v1/auth/csrf/"))).status).toBe(401);
  });
});

describe("refresh", () => {
  const refresh = (refreshToken: string) =>
    app.handle(json("POST", "/api/v1/auth/refresh/", { refreshToken }));

  test("rotates: a new pair, and the new access token works", async () => {
    const session = await signIn(ctx);
    const res = await refresh(session.refreshToken);
    expect(res.status).toBe(200);
    const pair = (await res.json()) as { accessToken: string; refreshToken: string };
    expect(pair.refreshToken).not.toBe(session.refreshToken);
    const me = await app.handle(as({ ...session, ...pair }, "GET", "/api/v1/auth/me/"));
    expect(me.status).toBe(200);
    expect((await refresh(pair.refreshToken)).status).toBe(200);
  });

  test("a reused refresh token revokes the whole family: tokens, cookie and the rotated successor", async () => {
    const session = await signIn(ctx);
    const first = (await (await refresh(session.refreshToken)).json()) as {
      accessToken: string;
      refreshToken: string;
    };
    const replay = await refresh(session.refreshToken);
    expect(replay.status).toBe(401);
    expect((await problemOf(replay)).code).toBe("REFRESH_TOKEN_REUSED");
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await app.handle(as({ ...session, ...first }, "GET", "/api/v1/auth/me/"))).status).toBe(
      401,
    );
    expect((await app.handle(as(session, "GET", "/api/v1/auth/me/"))).status).toBe(401);
    const byCookie = await app.handle(
      json("GET", "/api/v1/auth/me/", undefined, { cookie: session.cookie }),
    );
    expect(byCookie.status).toBe(401);
  });

  test("two concurrent uses of one token: exactly one wins", async () => {
    const session = await signIn(ctx);
    const results = await Promise.all([
      refresh(session.refreshToken),
      refresh(session.refreshToken),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  test("an unknown or malformed refresh token is a 401; a missing one a 422", async () => {
    const unknown = await refresh("not-a-real-refresh-token");
    expect((await problemOf(unknown)).code).toBe("INVALID_REFRESH_TOKEN");
    const missing = await app.handle(json("POST", "/api/v1/auth/refresh/", {}));
    expect(missing.status).toBe(422);
  });

  test("the sign-in ends when its lifetime is up: rotation does not extend it", async () => {
    // Real time, because the store expires keys by the wall clock (Redis does too).
    const short = await setupApp({ sessionTtlMs: 1_000 });
    const session = await signIn(short);
    await Bun.sleep(500);
    const rotated = await short.app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: session.refreshToken }),
    );
    expect(rotated.status).toBe(200);
    const pair = (await rotated.json()) as { refreshToken: string; accessToken: string };
    await Bun.sleep(600);
    const after = await short.app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: pair.refreshToken }),
    );
    expect((await problemOf(after)).code).toBe("INVALID_REFRESH_TOKEN");
    const me = await short.app.handle(as({ ...session, ...pair }, "GET", "/api/v1/auth/me/"));
    expect(me.status).toBe(401);
    const byCookie = await short.app.handle(
      json("GET", "/api/v1/auth/me/", undefined, { cookie: session.cookie }),
    );
    expect(byCookie.status).toBe(401);
  });
});

describe("logout", () => {
  test("revokes the access token, the refresh token and the cookie, and clears the cookie", async () => {
    const session = await signIn(ctx);
    const res = await app.handle(as(session, "POST", "/api/v1/auth/logout/"));
    expect(res.status).toBe(204);
    const cleared = res.headers.getSetCookie()[0] ?? "";
    expect(cleared).toContain("Max-Age=0");
    expect(cleared).toContain("Secure");
    expect((await app.handle(as(session, "GET", "/api/v1/auth/me/"))).status).toBe(401);
    const byCookie = await app.handle(
      json("GET", "/api/v1/auth/me/", undefined, { cookie: session.cookie }),
    );
    expect(byCookie.status).toBe(401);
    const refreshed = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: session.refreshToken }),
    );
    expect(refreshed.status).toBe(401);
  });

  test("with the cookie it needs the CSRF header; other sign-ins of the user live on", async () => {
    const session = await signIn(ctx);
    const other = await logIn(ctx, session.user.email);
    const without = await app.handle(
      json("POST", "/api/v1/auth/logout/", undefined, { cookie: session.cookie }),
    );
    expect(without.status).toBe(403);
    const ok = await app.handle(
      json("POST", "/api/v1/auth/logout/", undefined, {
        cookie: session.cookie,
        csrf: session.csrfToken,
      }),
    );
    expect(ok.status).toBe(204);
    expect(sessionCookieOf(ok)).toBe("__Host-admissions_session=");
    expect((await app.handle(as(other, "GET", "/api/v1/auth/me/"))).status).toBe(200);
  });
});
