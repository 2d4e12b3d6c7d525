import { json, logIn, PASSWORD, type Session, type TestContext, uniqueEmail } from "./support.ts";

/** The portal base the account suites configure, so links are seen to follow the setting. */
export const PORTAL = "https://apply.example.edu";

/** An applicant registered through the API (so unverified, with the registration email). */
export async function register(ctx: TestContext, label = "account") {
  const email = uniqueEmail(label);
  const res = await ctx.app.handle(
    json("POST", "/api/v1/auth/register/", { email, password: PASSWORD, fullName: "Ada Lovelace" }),
  );
  if (res.status !== 202) throw new Error(`register: ${res.status} ${await res.text()}`);
  return { email, session: await logIn(ctx, email) };
}

export type OutboxRow = { event: string; to_address: string; subject: string; body: string };

/** Every email the outbox holds for `to`, oldest first. */
export const emailsTo = (ctx: TestContext, to: string) =>
  ctx.db.run(
    (sql) => sql`SELECT event, to_address, subject, body FROM email_outbox
      WHERE to_address = ${to} ORDER BY created_at, id`,
  ) as Promise<OutboxRow[]>;

export const eventsTo = async (ctx: TestContext, to: string) =>
  (await emailsTo(ctx, to)).map((row) => row.event);

/** The link of the newest `event` email to `to`, as written in it. */
export async function linkIn(ctx: TestContext, to: string, event: string): Promise<string> {
  const rows = (await emailsTo(ctx, to)).filter((row) => row.event === event);
  const link = /https?:\/\/\S+\?token=[\w-]+/.exec(rows.at(-1)?.body ?? "")?.[0];
  if (!link) throw new Error(`no ${event} link to ${to}`);
  return link;
}

export const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

/**
 * POST with a JSON body, anonymous or as a session (bearer); resolves once the work the
 * request left for after its answer (a reset link's email) is done too.
 */
export async function post(ctx: TestContext, path: string, body?: unknown, who?: Session) {
  const res = await ctx.app.handle(json("POST", path, body, who ? { token: who.accessToken } : {}));
  await ctx.deps.afterResponse?.settled();
  return res;
}

export type Credential = "bearer" | "cookie" | "refresh";

/**
 * The status of one use of a sign-in by one of its credentials. A refresh that works rotates
 * the pair, so the session takes the new tokens (the old refresh token is spent).
 */
export async function useCredential(ctx: TestContext, session: Session, credential: Credential) {
  if (credential === "refresh") {
    const res = await ctx.app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: session.refreshToken }),
    );
    if (res.status === 200) Object.assign(session, await res.json());
    return res.status;
  }
  const opts =
    credential === "bearer" ? { token: session.accessToken } : { cookie: session.cookie };
  return (await ctx.app.handle(json("GET", "/api/v1/auth/me/", undefined, opts))).status;
}

/** The three ways a sign-in is used; each must be refused once it has ended. */
export const credentialsWork = async (ctx: TestContext, session: Session) => ({
  bearer: await useCredential(ctx, session, "bearer"),
  cookie: await useCredential(ctx, session, "cookie"),
  refresh: await useCredential(ctx, session, "refresh"),
});

export const ALIVE = { bearer: 200, cookie: 200, refresh: 200 };
export const ENDED = { bearer: 401, cookie: 401, refresh: 401 };

/** Time travel, undone after (access tokens live 15 minutes by the test clock). */
export async function later<T>(ctx: TestContext, ms: number, work: () => Promise<T>): Promise<T> {
  const start = ctx.clock.now();
  ctx.clock.advance(ms);
  try {
    return await work();
  } finally {
    ctx.clock.set(start);
  }
}
