import { afterAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { freePort, problemOf } from "@platform/server/testing";
import { accessTokens } from "../src/modules/auth/service.ts";
import { as, json, logIn, PASSWORD, setupApp, signIn, TEST_SECRET } from "./support.ts";

const ctx = await setupApp();
const { app } = ctx;

const me = (headers: Record<string, string>) =>
  app.handle(new Request("http://localhost/api/v1/auth/me/", { headers }));

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A JWT built by hand, to forge what a library would refuse to produce. */
function craft(
  header: object,
  payload: object,
  sign: { secret: string; hash: "sha256" | "sha512" } | null,
): string {
  const body = `${b64(header)}.${b64(payload)}`;
  const signature = sign ? createHmac(sign.hash, sign.secret).update(body).digest("base64url") : "";
  return `${body}.${signature}`;
}

function claimsOf(token: string) {
  const [, payload = ""] = token.split(".");
  return JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
}

const session = await signIn(ctx, "applicant");
const claims = claimsOf(session.accessToken);
const valid = { ...claims, exp: Math.floor(Date.now() / 1000) + 600 };

describe("forged access tokens are refused (401 INVALID_TOKEN)", () => {
  const cases: [string, () => Promise<string>][] = [
    ["alg: none", async () => craft({ alg: "none", typ: "JWT" }, valid, null)],
    [
      "alg: none claiming admin",
      async () => craft({ alg: "none" }, { ...valid, role: "admin" }, null),
    ],
    [
      "signed with another secret",
      () =>
        accessTokens("another-secret-of-sufficient-length-000").sign(
          { sub: String(claims.sub), sid: String(claims.sid), role: "applicant" },
          Date.now(),
        ),
    ],
    [
      "expired (signed 16 minutes ago)",
      () =>
        accessTokens(TEST_SECRET).sign(
          { sub: String(claims.sub), sid: String(claims.sid), role: "applicant" },
          ctx.clock.now() - 16 * 60_000,
        ),
    ],
    [
      "payload edited after signing (role: admin)",
      async () => {
        const [header, , signature] = session.accessToken.split(".");
        return `${header}.${b64({ ...claims, role: "admin" })}.${signature}`;
      },
    ],
    [
      "HS512 with the right secret (algorithm not allowed)",
      async () =>
        craft({ alg: "HS512", typ: "JWT" }, valid, { secret: TEST_SECRET, hash: "sha512" }),
    ],
    [
      "right secret, wrong audience",
      async () =>
        craft(
          { alg: "HS256" },
          { ...valid, aud: "someone-else" },
          { secret: TEST_SECRET, hash: "sha256" },
        ),
    ],
    [
      "right secret, wrong issuer",
      async () =>
        craft({ alg: "HS256" }, { ...valid, iss: "evil" }, { secret: TEST_SECRET, hash: "sha256" }),
    ],
    [
      "right secret, unknown session id",
      async () =>
        craft(
          { alg: "HS256" },
          { ...valid, sid: crypto.randomUUID() },
          { secret: TEST_SECRET, hash: "sha256" },
        ),
    ],
    [
      "right secret, another user's id in a valid session",
      async () =>
        craft(
          { alg: "HS256" },
          { ...valid, sub: crypto.randomUUID() },
          { secret: TEST_SECRET, hash: "sha256" },
        ),
    ],
    ["not a JWT", async () => "definitely-not-a-jwt"],
  ];

  test("the untouched token works", async () => {
    expect((await me({ authorization: `Bearer ${session.accessToken}` })).status).toBe(200);
  });

  test.each(cases)("%s", async (_, forge) => {
    const res = await me({ authorization: `Bearer ${await forge()}` });
    expect(res.status).toBe(401);
    expect((await problemOf(res)).code).toBe("INVALID_TOKEN");
  });

  test.each([["Basic dXNlcjpwYXNz"], ["Bearer"], ["Bearer "], ["token abc.def.ghi"]])(
    "Authorization: %s → 401",
    async (authorization) => {
      expect((await me({ authorization })).status).toBe(401);
    },
  );

  test("a bad bearer token is refused even beside a valid cookie: no silent fall-back", async () => {
    const res = await me({ authorization: "Bearer a.b.c", cookie: session.cookie });
    expect(res.status).toBe(401);
  });
});

describe("session cookie", () => {
  const [name, value = ""] = session.cookie.split("=");

  test("a tampered or made-up cookie is refused (401 INVALID_SESSION)", async () => {
    const flipped = `${value.slice(0, -1)}${value.endsWith("A") ? "B" : "A"}`;
    for (const forged of [flipped, `${value}x`, "", "a".repeat(43), crypto.randomUUID()]) {
      const res = await me({ cookie: `${name}=${forged}` });
      expect(res.status).toBe(401);
    }
    expect((await me({ cookie: session.cookie })).status).toBe(200);
  });

  const logoutWith = (headers: Record<string, string>) =>
    app.handle(json("POST", "/api/v1/auth/logout/", undefined, { headers }));

  test("cookie-only unsafe requests without the CSRF header: 403 CSRF_TOKEN_MISSING", async () => {
    const res = await logoutWith({ cookie: session.cookie });
    expect(res.status).toBe(403);
    expect((await problemOf(res)).code).toBe("CSRF_TOKEN_MISSING");
  });

  test("a wrong CSRF token, or another session's: 403 CSRF_TOKEN_INVALID", async () => {
    const other = await signIn(ctx);
    for (const token of ["wrong", other.csrfToken, `${session.csrfToken}x`]) {
      const res = await logoutWith({ cookie: session.cookie, "x-csrf-token": token });
      expect((await problemOf(res)).code).toBe("CSRF_TOKEN_INVALID");
    }
  });

  test("bearer-authenticated writes need no CSRF token (no ambient credential)", async () => {
    const fresh = await signIn(ctx);
    const res = await app.handle(as(fresh, "POST", "/api/v1/auth/logout/"));
    expect(res.status).toBe(204);
  });
});

describe("brute force is throttled", () => {
  test("per account: after 5 failures even the right password gets 429, until the window passes", async () => {
    const throttled = await setupApp({
      loginThrottle: { maxFailuresPerAccount: 5, maxFailuresPerIp: 1_000, windowMs: 15 * 60_000 },
    });
    const victim = await signIn(throttled);
    const attempt = (password: string) =>
      throttled.app.handle(
        json("POST", "/api/v1/auth/login/", { email: victim.user.email, password }),
      );
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-number-${i}`)).status).toBe(401);
    const locked = await attempt(PASSWORD);
    expect(locked.status).toBe(429);
    expect((await problemOf(locked)).code).toBe("LOGIN_THROTTLED");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect((await attempt("another-guess")).status).toBe(429);

    throttled.clock.advance(15 * 60_000 + 1_000);
    expect((await attempt(PASSWORD)).status).toBe(200);
  });

  test("per client IP, through the real server and a trusted proxy's X-Forwarded-For", async () => {
    const throttled = await setupApp({
      loginThrottle: { maxFailuresPerAccount: 1_000, maxFailuresPerIp: 3, windowMs: 60_000 },
    });
    const port = await freePort();
    throttled.app.listen({ port, hostname: "127.0.0.1" });
    afterAll(() => throttled.app.stop(true));
    const user = await signIn(throttled);
    const login = (ip: string, email: string, password: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/auth/login/`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": ip },
        body: JSON.stringify({ email, password }),
      });
    for (let i = 0; i < 3; i++) {
      expect((await login("203.0.113.7", `victim${i}@example.org`, "wrong-password")).status).toBe(
        401,
      );
    }
    const blocked = await login("203.0.113.7", user.user.email, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).not.toBeNull();
    expect((await login("198.51.100.9", user.user.email, PASSWORD)).status).toBe(200);
  });

  test("the throttle does not leak which accounts exist: unknown emails count and lock too", async () => {
    const throttled = await setupApp({
      loginThrottle: { maxFailuresPerAccount: 2, maxFailuresPerIp: 1_000, windowMs: 60_000 },
    });
    const attempt = () =>
      throttled.app.handle(
        json("POST", "/api/v1/auth/login/", { email: "ghost@example.org", password: PASSWORD }),
      );
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
  });

  test("a successful login elsewhere is unaffected by another account's lock", async () => {
    const throttled = await setupApp({
      loginThrottle: { maxFailuresPerAccount: 1, maxFailuresPerIp: 1_000, windowMs: 60_000 },
    });
    const locked = await signIn(throttled);
    const fine = await signIn(throttled);
    await throttled.app.handle(
      json("POST", "/api/v1/auth/login/", { email: locked.user.email, password: "nope-nope-nope" }),
    );
    await expect(logIn(throttled, locked.user.email)).rejects.toThrow(/429/);
    await logIn(throttled, fine.user.email);
  });
});
