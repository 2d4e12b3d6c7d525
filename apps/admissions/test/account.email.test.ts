/** Email verification (required to submit) and email change: happy and error paths. */
import { afterAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { deliverDueEmails, smtpMailer } from "../src/modules/outbox/service.ts";
import { emailsTo, eventsTo, linkIn, PORTAL, post, register, tokenOf } from "./account-support.ts";
import { startSmtpServer } from "./smtp.ts";
import {
  as,
  createDraft,
  json,
  logIn,
  PASSWORD,
  type Session,
  setupApp,
  signIn,
  uniqueEmail,
} from "./support.ts";
import { intakeWithSeats, testJobs } from "./workflow-support.ts";

const ctx = await setupApp({ portalUrl: PORTAL });
const admin = await signIn(ctx, "admin");
const smtp = await startSmtpServer();
const mailer = smtpMailer(smtp.url, "Admissions Office <admissions@example.org>");
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const status = async (who: Session) =>
  (await ctx.app.handle(as(who, "GET", "/api/v1/account/email-verification/"))).json();
const confirmVerification = (token: string) =>
  post(ctx, "/api/v1/account/email-verification/confirm/", { token });
const me = async (who: Session) =>
  (await (await ctx.app.handle(as(who, "GET", "/api/v1/auth/me/"))).json()) as { email: string };

describe("account emails as delivered (first: the outbox holds little yet)", () => {
  test("every account event arrives as text and HTML, its links anchors to the portal", async () => {
    const { email, session } = await register(ctx, "delivered");
    const reviewer = await signIn(ctx, "reviewer");
    const next = uniqueEmail("delivered-new");
    await post(ctx, "/api/v1/account/password-reset/", { email });
    const newPassword = "another-long-password";
    await post(
      ctx,
      "/api/v1/account/password/",
      { currentPassword: PASSWORD, newPassword },
      session,
    );
    await post(
      ctx,
      "/api/v1/account/email-change/",
      { newEmail: next, password: newPassword },
      session,
    );
    const token = tokenOf(await linkIn(ctx, next, "email_change_verification"));
    expect((await post(ctx, "/api/v1/account/email-change/confirm/", { token })).status).toBe(204);
    await ctx.app.handle(
      as(admin, "POST", `/api/v1/staff/users/${reviewer.user.id}/password-reset/`),
    );
    const tokens = [
      tokenOf(await linkIn(ctx, email, "email_verification")),
      tokenOf(await linkIn(ctx, email, "password_reset_requested")),
      token,
    ];
    const jobs = testJobs(ctx, mailer);
    while ((await deliverDueEmails({ ...jobs, policy: jobs.delivery })).sent > 0) {}

    const arrived = (to: string) => smtp.messages.filter((m) => m.to.includes(to));
    const events = (to: string) => arrived(to).map((m) => m.headers["x-admissions-event"]);
    expect(events(email)).toEqual([
      "email_verification",
      "password_reset_requested",
      "password_changed",
      "email_change_requested",
      "email_changed_notice",
    ]);
    expect(events(next)).toEqual(["email_change_verification"]);
    expect(events(reviewer.user.email)).toEqual(["password_reset_by_admin"]);
    for (const message of [...arrived(email), ...arrived(next), ...arrived(reviewer.user.email)]) {
      expect(message.html).toContain("<p>Dear ");
      expect(message.headers["x-admissions-application"]).toBeUndefined();
      for (const link of message.text.match(/https?:\/\/\S+/g) ?? []) {
        expect(link).toStartWith(`${PORTAL}/account/`);
        expect(message.html).toContain(`<a href="${link}">`);
      }
    }
    expect(arrived(email)[1]?.text).toContain(`${PORTAL}/account/reset-password?token=`);
    // Once delivered, the stored copy no longer holds the link's token.
    const stored = [...(await emailsTo(ctx, email)), ...(await emailsTo(ctx, next))];
    const text = stored.map((row) => row.body).join("\n");
    for (const delivered of tokens) expect(text).not.toContain(delivered);
    expect(text).toContain("/account/reset-password?token=(removed-after-delivery)");
  });
});

describe("email verification", () => {
  test("registration emails a link; submitting waits for it (403 EMAIL_NOT_VERIFIED)", async () => {
    const { email, session } = await register(ctx, "verify");
    expect(await status(session)).toEqual({ email, verified: false, verifiedAt: null });
    const { intake } = await intakeWithSeats(ctx, admin);
    const draft = await createDraft(ctx, session, intake.id);
    const submit = () =>
      ctx.app.handle(as(session, "POST", `/api/v1/applications/${draft.id}/submit/`));
    const refused = await submit();
    expect(refused.status).toBe(403);
    expect((await problemOf(refused)).code).toBe("EMAIL_NOT_VERIFIED");

    const link = await linkIn(ctx, email, "email_verification");
    expect(link).toStartWith(`${PORTAL}/account/verify-email?token=`);
    expect((await confirmVerification(tokenOf(link))).status).toBe(204);
    expect(await status(session)).toMatchObject({ email, verified: true });
    expect((await submit()).status).toBe(200);
  });

  test("a new link voids the earlier one; once verified, asking again is 409", async () => {
    const { email, session } = await register(ctx, "resend");
    const first = tokenOf(await linkIn(ctx, email, "email_verification"));
    const resend = await ctx.app.handle(as(session, "POST", "/api/v1/account/email-verification/"));
    expect(resend.status).toBe(202);
    expect(await resend.json()).toEqual({
      detail: `A verification link has been sent to ${email}`,
    });
    const second = tokenOf(await linkIn(ctx, email, "email_verification"));
    expect(second).not.toBe(first);
    expect((await problemOf(await confirmVerification(first))).code).toBe("INVALID_ACCOUNT_TOKEN");
    expect((await confirmVerification(second)).status).toBe(204);
    const again = await ctx.app.handle(as(session, "POST", "/api/v1/account/email-verification/"));
    expect(again.status).toBe(409);
    expect((await problemOf(again)).code).toBe("EMAIL_ALREADY_VERIFIED");
  });

  test("anonymous: status and resend are 401", async () => {
    for (const method of ["GET", "POST"]) {
      const res = await ctx.app.handle(json(method, "/api/v1/account/email-verification/"));
      expect(res.status).toBe(401);
    }
  });
});

describe("change my email", () => {
  const requestChange = (who: Session, newEmail: string, password = PASSWORD) =>
    post(ctx, "/api/v1/account/email-change/", { newEmail, password }, who);
  const confirmChange = (token: string) =>
    post(ctx, "/api/v1/account/email-change/confirm/", { token });

  test("a link to the new address, a notice to the old; it changes when the link is opened", async () => {
    const who = await signIn(ctx);
    const old = who.user.email;
    const next = uniqueEmail("moved");
    const res = await requestChange(who, next.toUpperCase());
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      detail: `A confirmation link has been sent to ${next}; the address changes when it is opened`,
    });
    expect((await me(who)).email).toBe(old);
    expect(await eventsTo(ctx, next)).toEqual(["email_change_verification"]);
    expect((await eventsTo(ctx, old)).at(-1)).toBe("email_change_requested");
    expect((await emailsTo(ctx, old)).at(-1)?.body).toContain(next);

    const link = await linkIn(ctx, next, "email_change_verification");
    expect(link).toStartWith(`${PORTAL}/account/confirm-email-change?token=`);
    expect((await confirmChange(tokenOf(link))).status).toBe(204);
    expect((await me(who)).email).toBe(next);
    expect(await status(who)).toMatchObject({ email: next, verified: true });
    expect((await eventsTo(ctx, old)).at(-1)).toBe("email_changed_notice");
    expect((await logIn(ctx, next)).user.email).toBe(next);
    const oldLogin = await ctx.app.handle(
      json("POST", "/api/v1/auth/login/", { email: old, password: PASSWORD }),
    );
    expect(oldLogin.status).toBe(401);
  });

  test("a wrong password is 403 and sends nothing; the same address is 422", async () => {
    const who = await signIn(ctx);
    const next = uniqueEmail("never");
    const wrong = await requestChange(who, next, "not-the-password");
    expect(wrong.status).toBe(403);
    expect((await problemOf(wrong)).code).toBe("PASSWORD_INCORRECT");
    expect(await eventsTo(ctx, next)).toEqual([]);
    const same = await requestChange(who, who.user.email);
    expect(same.status).toBe(422);
    expect((await problemOf(same)).errors?.[0]?.path).toBe("/body/newEmail");
  });

  test("an address another account has: the same 202, then 409 EMAIL_TAKEN at the link", async () => {
    const who = await signIn(ctx);
    const other = await signIn(ctx);
    const res = await requestChange(who, other.user.email);
    expect(res.status).toBe(202);
    const link = await linkIn(ctx, other.user.email, "email_change_verification");
    const taken = await confirmChange(tokenOf(link));
    expect(taken.status).toBe(409);
    expect((await problemOf(taken)).code).toBe("EMAIL_TAKEN");
    expect((await me(who)).email).toBe(who.user.email);
    expect((await me(other)).email).toBe(other.user.email);
  });

  test("the change voids the links sent to the old address", async () => {
    const who = await signIn(ctx);
    await post(ctx, "/api/v1/account/password-reset/", { email: who.user.email });
    const reset = tokenOf(await linkIn(ctx, who.user.email, "password_reset_requested"));
    const next = uniqueEmail("voids");
    await requestChange(who, next);
    await confirmChange(tokenOf(await linkIn(ctx, next, "email_change_verification")));
    const res = await post(ctx, "/api/v1/account/password-reset/confirm/", {
      token: reset,
      newPassword: "another-long-password",
    });
    expect((await problemOf(res)).code).toBe("INVALID_ACCOUNT_TOKEN");
  });
});
