import { Secret, TOTP } from "otpauth";
import { as, json, PASSWORD, type Session, sessionCookieOf, type TestContext } from "./support.ts";

/** The code an authenticator app shows for `secret` at `ms` (RFC 6238, as enrolled). */
export const codeAt = (secret: string, ms: number) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    timestamp: ms,
  });

/** The next 30-second step: a code already used in this one would be refused as a replay. */
export const nextStep = (ctx: TestContext) => ctx.clock.advance(30_000);

export type Enrolment = { secret: string; recoveryCodes: string[] };

/** Starts and confirms MFA for `session` through the API. */
export async function enrol(ctx: TestContext, session: Session): Promise<Enrolment> {
  const start = await ctx.app.handle(as(session, "POST", "/api/v1/mfa/totp/"));
  if (start.status !== 201) throw new Error(`enrol: ${start.status} ${await start.text()}`);
  const { secret } = (await start.json()) as { secret: string };
  const confirm = await ctx.app.handle(
    as(session, "POST", "/api/v1/mfa/totp/confirm/", { code: codeAt(secret, ctx.clock.now()) }),
  );
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${await confirm.text()}`);
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
  nextStep(ctx);
  return { secret, recoveryCodes };
}

/** POST /auth/login/ with whatever second factor fields are given. */
export const login = (ctx: TestContext, email: string, extra: Record<string, unknown> = {}) =>
  ctx.app.handle(json("POST", "/api/v1/auth/login/", { email, password: PASSWORD, ...extra }));

/** A signed-in session from a successful login response. */
export async function sessionOf(res: Response): Promise<Session> {
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Omit<Session, "cookie">;
  return { ...body, cookie: sessionCookieOf(res) };
}

/** The outbox rows addressed to `to`, oldest first (one helper for every account test). */
export { emailsTo, type OutboxRow as SentEmail } from "./account-support.ts";
