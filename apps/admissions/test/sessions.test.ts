/** My sign-ins: listed with device, IP and last use; ended one by one or all but this one. */
import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { deviceOf } from "../src/modules/auth/internal/device.ts";
import { openSignIn } from "../src/modules/auth/internal/registry.ts";
import { startFamily } from "../src/modules/auth/internal/sessions.ts";
import type { Session as SessionJson } from "../src/modules/auth/model.ts";
import { type AuthDeps, accessTokens, login as loginService } from "../src/modules/auth/service.ts";
import { ALIVE, credentialsWork, ENDED, useCredential } from "./account-support.ts";
import {
  as,
  json,
  PASSWORD,
  type Paged,
  type Session,
  setupApp,
  signIn,
  TEST_PASSWORD_COST,
  TEST_SECRET,
} from "./support.ts";

const ctx = await setupApp();
/** The auth service as the app wires it, to log in with a client address of our choosing. */
const authDeps: AuthDeps = {
  db: ctx.db,
  store: ctx.store,
  tokens: accessTokens(TEST_SECRET),
  now: ctx.clock.now,
  sessionTtlMs: DEFAULT_SETTINGS.sessionTtlMs,
  passwordCost: TEST_PASSWORD_COST,
  throttle: DEFAULT_SETTINGS.loginThrottle,
};

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function loginFrom(email: string, userAgent: string): Promise<Session> {
  const res = await ctx.app.handle(
    json(
      "POST",
      "/api/v1/auth/login/",
      { email, password: PASSWORD },
      {
        headers: { "user-agent": userAgent },
      },
    ),
  );
  const body = (await res.json()) as Omit<Session, "cookie">;
  const cookie = res.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  return { ...body, cookie };
}

const list = async (who: Session, query = "") => {
  const res = await ctx.app.handle(as(who, "GET", `/api/v1/sessions/${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as Paged<SessionJson>;
};

describe("list my sessions", () => {
  test("each sign-in with its device, IP, times; `current` marks the caller's", async () => {
    const first = await signIn(ctx);
    const phone = await loginFrom(first.user.email, SAFARI_IPHONE);
    const laptop = await loginFrom(first.user.email, FIREFOX_LINUX);
    const page = await list(laptop);
    expect(page.count).toBe(3);
    const byId = new Map(page.results.map((s) => [s.id, s]));
    const mine = byId.get(claimsOf(laptop).sid);
    expect(mine).toMatchObject({ current: true, device: "Firefox on Linux", ip: "unknown" });
    expect(byId.get(claimsOf(phone).sid)).toMatchObject({
      current: false,
      device: "Safari on iOS",
    });
    expect(byId.get(claimsOf(first).sid)?.device).toBeNull();
    expect(Date.parse(mine?.expiresAt ?? "") - Date.parse(mine?.createdAt ?? "")).toBe(
      14 * 86_400_000,
    );
  });

  test("the IP is the client address login was given (in-process requests have none)", async () => {
    const who = await signIn(ctx);
    await loginService(authDeps, { email: who.user.email, password: PASSWORD }, "203.0.113.7");
    const ips = (await list(who)).results.map((s) => s.ip).sort();
    expect(ips).toEqual(["203.0.113.7", "unknown"]);
  });

  test("last use moves with requests, at most once a minute", async () => {
    const who = await signIn(ctx);
    const start = ctx.clock.now();
    try {
      const created = (await list(who)).results[0]?.createdAt;
      ctx.clock.advance(30_000);
      expect((await list(who)).results[0]?.lastUsedAt).toBe(created);
      ctx.clock.advance(90_000);
      const moved = (await list(who)).results[0]?.lastUsedAt;
      expect(moved).toBe(new Date(start + 120_000).toISOString());
    } finally {
      ctx.clock.set(start);
    }
  });

  test("paginated like every list", async () => {
    const who = await signIn(ctx);
    await loginFrom(who.user.email, FIREFOX_LINUX);
    const page = await list(who, "?limit=1");
    expect(page).toMatchObject({ count: 2, previous: null });
    expect(page.results).toHaveLength(1);
    expect(page.next).toBe("/api/v1/sessions/?limit=1&offset=1");
  });

  test("logout and refresh-token reuse take a sign-in off the list", async () => {
    const who = await signIn(ctx);
    const a = await loginFrom(who.user.email, FIREFOX_LINUX);
    const b = await loginFrom(who.user.email, SAFARI_IPHONE);
    await ctx.app.handle(as(a, "POST", "/api/v1/auth/logout/"));
    const refresh = () =>
      ctx.app.handle(json("POST", "/api/v1/auth/refresh/", { refreshToken: b.refreshToken }));
    await refresh();
    expect((await problemOf(await refresh())).code).toBe("REFRESH_TOKEN_REUSED");
    expect((await list(who)).results.map((s) => s.id)).toEqual([claimsOf(who).sid]);
  });
});

describe("end my sessions", () => {
  test("DELETE /sessions/{id}/ ends that sign-in: its bearer, cookie and refresh token", async () => {
    const who = await signIn(ctx);
    const other = await loginFrom(who.user.email, SAFARI_IPHONE);
    const res = await ctx.app.handle(as(who, "DELETE", `/api/v1/sessions/${claimsOf(other).sid}/`));
    expect(res.status).toBe(204);
    expect(await credentialsWork(ctx, other)).toEqual(ENDED);
    expect(await credentialsWork(ctx, who)).toEqual(ALIVE);
  });

  test("DELETE /sessions/ ends every sign-in but mine and says how many", async () => {
    const who = await signIn(ctx);
    const others = [
      await loginFrom(who.user.email, SAFARI_IPHONE),
      await loginFrom(who.user.email, FIREFOX_LINUX),
    ];
    const res = await ctx.app.handle(as(who, "DELETE", "/api/v1/sessions/"));
    expect(await res.json()).toEqual({ ended: 2 });
    for (const other of others) expect(await credentialsWork(ctx, other)).toEqual(ENDED);
    expect(await credentialsWork(ctx, who)).toEqual(ALIVE);
    expect((await list(who)).count).toBe(1);
    const again = await ctx.app.handle(as(who, "DELETE", "/api/v1/sessions/"));
    expect(await again.json()).toEqual({ ended: 0 });
  });

  test("ending my own current sign-in is a logout", async () => {
    const who = await signIn(ctx);
    const res = await ctx.app.handle(as(who, "DELETE", `/api/v1/sessions/${claimsOf(who).sid}/`));
    expect(res.status).toBe(204);
    expect(await credentialsWork(ctx, who)).toEqual(ENDED);
  });

  test("an account keeps its 50 newest sign-ins: the 51st ends the oldest", async () => {
    const who = await signIn(ctx);
    let newest = who;
    for (let i = 0; i < 50; i++) newest = await loginFrom(who.user.email, FIREFOX_LINUX);
    expect((await list(newest)).count).toBe(50);
    expect(await credentialsWork(ctx, who)).toEqual(ENDED);
  });
});

describe("a login racing a password change", () => {
  test("a sign-in opened with a password that changed meanwhile is ended at once", async () => {
    const who = await signIn(ctx);
    const [row] = (await ctx.db.run(
      (sql) => sql`SELECT password_hash FROM users WHERE id = ${who.user.id}`,
    )) as { password_hash: string }[];
    const origin = { ip: null, userAgent: null };
    const current = { id: who.user.id, passwordHash: row?.password_hash ?? "" };
    expect(await openSignIn(authDeps, current, origin)).not.toBeNull();
    const stale = { id: who.user.id, passwordHash: "$argon2id$v=19$the-old-one" };
    expect(await openSignIn(authDeps, stale, origin)).toBeNull();
    const rows = await ctx.db.run(
      (sql) => sql`SELECT id FROM user_sessions WHERE user_id = ${who.user.id}`,
    );
    expect(rows).toHaveLength(2);
    expect((await list(who)).count).toBe(2);
  });
});

describe("a sign-in the list does not know (made before it existed)", () => {
  test.each(["bearer", "cookie", "refresh"] as const)(
    "by %s, so that ending every other sign-in cannot miss it",
    async (credential) => {
      const who = await signIn(ctx);
      const family = await startFamily(ctx.store, who.user.id, DEFAULT_SETTINGS.sessionTtlMs);
      const accessToken = await authDeps.tokens.sign(
        { sub: who.user.id, sid: family.familyId, role: "applicant" },
        ctx.clock.now(),
      );
      const unlisted: Session = {
        ...who,
        accessToken,
        refreshToken: family.refreshToken,
        cookie: `__Host-admissions_session=${family.sessionToken}`,
      };
      // Only the credential under test is used first: the refusal also ends the sign-in.
      expect(await useCredential(ctx, unlisted, credential)).toBe(401);
      expect(await credentialsWork(ctx, who)).toEqual(ALIVE);
    },
  );
});

describe("devices as people recognise them", () => {
  test.each([
    [FIREFOX_LINUX, "Firefox on Linux"],
    [SAFARI_IPHONE, "Safari on iOS"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari on macOS",
    ],
    ["curl/8.5.0", "curl/8.5.0"],
    [`bot/${"x".repeat(200)}`, `bot/${"x".repeat(75)}…`],
    ["", null],
  ])("%p → %p", (ua, device) => {
    expect(deviceOf(ua)).toBe(device);
  });
});

function claimsOf(session: Session): { sid: string } {
  const [, payload = ""] = session.accessToken.split(".");
  return JSON.parse(Buffer.from(payload, "base64url").toString()) as { sid: string };
}
