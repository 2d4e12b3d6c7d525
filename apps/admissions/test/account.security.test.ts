/**
 * Account recovery and sessions under attack: enumeration, link reuse and expiry, brute force,
 * another account's sessions, CSRF on cookie sessions.
 */
import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { LINK_LIFETIME_MS } from "../src/modules/account/service.ts";
import {
  ALIVE,
  credentialsWork,
  eventsTo,
  later,
  linkIn,
  post,
  register,
  tokenOf,
} from "./account-support.ts";
import {
  as,
  json,
  logIn,
  PASSWORD,
  type Session,
  setupApp,
  signIn,
  uniqueEmail,
} from "./support.ts";

const ctx = await setupApp();
/** Apps with small quotas; in-process requests all come from one client address. */
const limited = await setupApp({
  accountLimits: { emailsPerIpPerHour: 3, emailsPerAccountPerHour: 2, linkUsesPerIpPerHour: 3 },
});
const perAccount = await setupApp({
  accountLimits: { emailsPerIpPerHour: 100, emailsPerAccountPerHour: 2, linkUsesPerIpPerHour: 100 },
});

/** Status, headers and body, minus what differs on every request anyway. */
async function answerOf(res: Response, replace: [string, string][] = []) {
  const headers = [...res.headers.entries()]
    .filter(([name]) => name !== "x-request-id")
    // The per-IP quota left goes down by one on every request, whatever the address.
    .map(([name, value]) => [name, name === "ratelimit" ? value.replace(/;r=\d+/, ";r=_") : value]);
  let body = await res.text();
  for (const [from, to] of replace) body = body.replaceAll(from, to);
  return { status: res.status, headers, body };
}

describe("enumeration: the answers do not tell which addresses have accounts", () => {
  test("reset requests for a known, an unknown, a disabled address: the same 202", async () => {
    const known = await signIn(ctx);
    const disabled = await signIn(ctx, "reviewer");
    const admin = await signIn(ctx, "admin");
    await ctx.app.handle(
      as(admin, "PATCH", `/api/v1/staff/users/${disabled.user.id}/`, { active: false }),
    );
    const reset = (email: string) => post(ctx, "/api/v1/account/password-reset/", { email });
    const reference = await answerOf(await reset(known.user.email));
    for (const email of [uniqueEmail("nobody"), disabled.user.email, known.user.email]) {
      expect(await answerOf(await reset(email))).toEqual(reference);
    }
    expect(await eventsTo(ctx, disabled.user.email)).toEqual([]);
  });

  test("email change to an address with an account: the same 202 as to a free one", async () => {
    const who = await signIn(ctx);
    const taken = (await signIn(ctx)).user.email;
    const free = uniqueEmail("free");
    const change = (newEmail: string) =>
      post(ctx, "/api/v1/account/email-change/", { newEmail, password: PASSWORD }, who);
    const toFree = await answerOf(await change(free), [[free, "<new>"]]);
    const toTaken = await answerOf(await change(taken), [[taken, "<new>"]]);
    expect(toTaken).toEqual(toFree);
  });
});

type LinkKind = {
  name: string;
  lifetimeMs: number;
  issue(): Promise<string>;
  use(token: string): Promise<Response>;
};

const linkKinds: LinkKind[] = [
  {
    name: "password reset",
    lifetimeMs: LINK_LIFETIME_MS.reset,
    async issue() {
      const { user } = await signIn(ctx);
      await post(ctx, "/api/v1/account/password-reset/", { email: user.email });
      return tokenOf(await linkIn(ctx, user.email, "password_reset_requested"));
    },
    use: (token) =>
      post(ctx, "/api/v1/account/password-reset/confirm/", {
        token,
        newPassword: `new-password-${crypto.randomUUID()}`,
      }),
  },
  {
    name: "email verification",
    lifetimeMs: LINK_LIFETIME_MS.verify,
    async issue() {
      const { email } = await register(ctx, "verify-attack");
      return tokenOf(await linkIn(ctx, email, "email_verification"));
    },
    use: (token) => post(ctx, "/api/v1/account/email-verification/confirm/", { token }),
  },
  {
    name: "email change",
    lifetimeMs: LINK_LIFETIME_MS.change_email,
    async issue() {
      const who = await signIn(ctx);
      const newEmail = uniqueEmail("change-attack");
      await post(ctx, "/api/v1/account/email-change/", { newEmail, password: PASSWORD }, who);
      return tokenOf(await linkIn(ctx, newEmail, "email_change_verification"));
    },
    use: (token) => post(ctx, "/api/v1/account/email-change/confirm/", { token }),
  },
];

const invalid = async (res: Response) => {
  expect(res.status).toBe(400);
  expect((await problemOf(res)).code).toBe("INVALID_ACCOUNT_TOKEN");
};

describe.each(linkKinds)("$name links", (kind) => {
  test("work once: a second use is 400 INVALID_ACCOUNT_TOKEN", async () => {
    const token = await kind.issue();
    expect((await kind.use(token)).status).toBe(204);
    await invalid(await kind.use(token));
  });

  test("of two uses at once, exactly one succeeds", async () => {
    const token = await kind.issue();
    const statuses = (await Promise.all([kind.use(token), kind.use(token)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([204, 400]);
  });

  test("work until their lifetime ends, not after", async () => {
    const late = await kind.issue();
    await later(ctx, kind.lifetimeMs, async () => invalid(await kind.use(late)));
    const inTime = await kind.issue();
    await later(ctx, kind.lifetimeMs - 1_000, async () =>
      expect((await kind.use(inTime)).status).toBe(204),
    );
  });

  test("are stored only as a SHA-256 digest", async () => {
    const token = await kind.issue();
    const rows = await ctx.db.run((sql) => sql`SELECT * FROM account_tokens`);
    expect(JSON.stringify(rows)).not.toContain(token);
    const digest = new Bun.CryptoHasher("sha256").update(token).digest("base64url");
    expect(JSON.stringify(rows)).toContain(digest);
  });
});

test("a link only works for its own purpose", async () => {
  const tokens = [];
  for (const kind of linkKinds) tokens.push(await kind.issue());
  // Each kind's route, given the next kind's token.
  for (const [i, kind] of linkKinds.entries()) {
    await invalid(await kind.use(tokens[(i + 1) % tokens.length] ?? ""));
  }
});

describe("brute force", () => {
  test("link guessing: 3 uses per IP an hour, then 429 even for a right token", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post(limited, "/api/v1/account/email-verification/confirm/", {
        token: crypto.randomUUID(),
      });
      expect(res.status).toBe(400);
    }
    const refused = await post(limited, "/api/v1/account/password-reset/confirm/", {
      token: "x".repeat(43),
      newPassword: "long-enough-password",
    });
    expect(refused.status).toBe(429);
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("reset emails: 2 per address an hour (then silently none), 3 per IP (then 429)", async () => {
    // A reviewer: signIn verifies applicants, which would use this app's small link quota.
    const { user } = await signIn(limited, "reviewer");
    const reset = () => post(limited, "/api/v1/account/password-reset/", { email: user.email });
    const first = await answerOf(await reset());
    expect(first.status).toBe(202);
    await reset();
    // Over the address's quota: the same answer, and no email.
    expect(await answerOf(await reset())).toEqual(first);
    const sent = (await eventsTo(limited, user.email)).filter(
      (e) => e === "password_reset_requested",
    );
    expect(sent).toHaveLength(2);
    const refused = await reset();
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
  });

  test("verification links: 2 per account an hour, then 429", async () => {
    const { session } = await register(perAccount, "resend");
    const resend = () =>
      perAccount.app.handle(as(session, "POST", "/api/v1/account/email-verification/"));
    expect([(await resend()).status, (await resend()).status]).toEqual([202, 202]);
    const refused = await resend();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("guessing the current password with a stolen session locks like failed logins", async () => {
    const who = await signIn(ctx);
    const change = (currentPassword: string) =>
      post(ctx, "/api/v1/account/password/", { currentPassword, newPassword: "x".repeat(12) }, who);
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}`)).status).toBe(403);
    const locked = await change(PASSWORD);
    expect(locked.status).toBe(429);
    expect((await problemOf(locked)).code).toBe("LOGIN_THROTTLED");
    const emailChange = await post(
      ctx,
      "/api/v1/account/email-change/",
      { newEmail: uniqueEmail("locked"), password: PASSWORD },
      who,
    );
    expect((await problemOf(emailChange)).code).toBe("LOGIN_THROTTLED");
  });
});

describe("another account's sessions", () => {
  test("ending one is 404, as for an id that does not exist, and it stays alive", async () => {
    const attacker = await signIn(ctx);
    const victim = await signIn(ctx);
    const sid = sidOf(victim);
    for (const id of [sid, crypto.randomUUID(), "not-a-uuid"]) {
      const res = await ctx.app.handle(as(attacker, "DELETE", `/api/v1/sessions/${id}/`));
      expect(res.status).toBe(404);
    }
    expect(await credentialsWork(ctx, victim)).toEqual(ALIVE);
    await ctx.app.handle(as(attacker, "DELETE", "/api/v1/sessions/"));
    expect(await credentialsWork(ctx, victim)).toEqual(ALIVE);
    const list = await (await ctx.app.handle(as(attacker, "GET", "/api/v1/sessions/"))).text();
    expect(list).not.toContain(sid);
  });

  test("only admins reset a staff password", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    const target = await signIn(ctx, "reviewer");
    for (const who of [reviewer, await signIn(ctx)]) {
      const res = await ctx.app.handle(
        as(who, "POST", `/api/v1/staff/users/${target.user.id}/password-reset/`),
      );
      expect(res.status).toBe(403);
    }
    expect(await credentialsWork(ctx, target)).toEqual(ALIVE);
  });
});

describe("CSRF: cookie-session writes need the X-CSRF-Token header", () => {
  type Write = [string, string, (who: Session) => unknown, number];
  const writes: Write[] = [
    [
      "POST",
      "/api/v1/account/password/",
      () => ({ currentPassword: PASSWORD, newPassword: "x".repeat(12) }),
      204,
    ],
    ["POST", "/api/v1/account/email-verification/", () => undefined, 409],
    [
      "POST",
      "/api/v1/account/email-change/",
      () => ({ newEmail: uniqueEmail("csrf"), password: PASSWORD }),
      202,
    ],
    ["DELETE", "/api/v1/sessions/", () => undefined, 200],
  ];

  test.each(writes)("%s %s", async (method, path, body, okStatus) => {
    const who = await signIn(ctx);
    const other = await logIn(ctx, who.user.email);
    const send = (csrf?: string) =>
      ctx.app.handle(json(method, path, body(who), { cookie: who.cookie, csrf }));
    expect((await problemOf(await send())).code).toBe("CSRF_TOKEN_MISSING");
    expect((await problemOf(await send("forged"))).code).toBe("CSRF_TOKEN_INVALID");
    expect(await credentialsWork(ctx, other)).toEqual(ALIVE);
    expect((await send(who.csrfToken)).status).toBe(okStatus);
  });

  test("DELETE /sessions/{id}/ and the admin reset too", async () => {
    const admin = await signIn(ctx, "admin");
    const reviewer = await signIn(ctx, "reviewer");
    for (const path of [
      `/api/v1/sessions/${sidOf(admin)}/`,
      `/api/v1/staff/users/${reviewer.user.id}/password-reset/`,
    ]) {
      const method = path.includes("sessions") ? "DELETE" : "POST";
      const res = await ctx.app.handle(json(method, path, undefined, { cookie: admin.cookie }));
      expect((await problemOf(res)).code).toBe("CSRF_TOKEN_MISSING");
    }
    expect(await credentialsWork(ctx, admin)).toEqual(ALIVE);
    expect(await credentialsWork(ctx, reviewer)).toEqual(ALIVE);
  });
});

describe("anonymous callers", () => {
  test.each([
    ["GET", "/api/v1/sessions/"],
    ["DELETE", "/api/v1/sessions/"],
    ["DELETE", `/api/v1/sessions/${crypto.randomUUID()}/`],
    ["POST", "/api/v1/account/password/"],
    ["GET", "/api/v1/account/email-verification/"],
    ["POST", "/api/v1/account/email-verification/"],
    ["POST", "/api/v1/account/email-change/"],
  ])("%s %s → 401", async (method, path) => {
    const res = await ctx.app.handle(json(method, path, method === "POST" ? {} : undefined));
    expect(res.status).toBe(401);
  });
});

function sidOf(session: Session): string {
  const [, payload = ""] = session.accessToken.split(".");
  return (JSON.parse(Buffer.from(payload, "base64url").toString()) as { sid: string }).sid;
}
