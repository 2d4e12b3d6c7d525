/** Password reset by email, password change and the admin-triggered reset: happy and error paths. */
import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import {
  ALIVE,
  credentialsWork,
  ENDED,
  eventsTo,
  linkIn,
  PORTAL,
  post,
  register,
  tokenOf,
} from "./account-support.ts";
import { as, json, logIn, PASSWORD, setupApp, signIn } from "./support.ts";

const ctx = await setupApp({ portalUrl: PORTAL });
const NEW_PASSWORD = "a-brand-new-password";

const requestReset = (email: string) => post(ctx, "/api/v1/account/password-reset/", { email });
const confirmReset = (token: string, newPassword = NEW_PASSWORD) =>
  post(ctx, "/api/v1/account/password-reset/confirm/", { token, newPassword });
const login = (email: string, password: string) =>
  ctx.app.handle(json("POST", "/api/v1/auth/login/", { email, password }));

describe("forgot my password", () => {
  test("the emailed link sets a new password, ends every sign-in and proves the address", async () => {
    const { email, session } = await register(ctx, "reset");
    const other = await logIn(ctx, email);
    const res = await requestReset(email.toUpperCase());
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      detail:
        "If an account uses this address, a link to choose a new password has been sent to it",
    });
    const link = await linkIn(ctx, email, "password_reset_requested");
    expect(link).toStartWith(`${PORTAL}/account/reset-password?token=`);
    expect(tokenOf(link)).toMatch(/^[\w-]{43}$/);

    expect((await confirmReset(tokenOf(link))).status).toBe(204);
    expect(await credentialsWork(ctx, session)).toEqual(ENDED);
    expect(await credentialsWork(ctx, other)).toEqual(ENDED);
    expect((await login(email, PASSWORD)).status).toBe(401);
    const fresh = await logIn(ctx, email, NEW_PASSWORD);
    const status = await ctx.app.handle(as(fresh, "GET", "/api/v1/account/email-verification/"));
    expect(await status.json()).toMatchObject({ email, verified: true });
    expect(await eventsTo(ctx, email)).toEqual([
      "email_verification",
      "password_reset_requested",
      "password_changed",
    ]);
  });

  test("an unknown address gets the same 202 and no email", async () => {
    const res = await requestReset("nobody-here@example.org");
    expect(res.status).toBe(202);
    expect(await eventsTo(ctx, "nobody-here@example.org")).toEqual([]);
  });

  test("the new password follows the registration rules (422), and the link stays usable", async () => {
    const { email } = await register(ctx, "reset-short");
    await requestReset(email);
    const token = tokenOf(await linkIn(ctx, email, "password_reset_requested"));
    const short = await confirmReset(token, "short");
    expect(short.status).toBe(422);
    expect((await confirmReset(token)).status).toBe(204);
  });

  test.each([
    ["an unknown token", "x".repeat(43), 400, "INVALID_ACCOUNT_TOKEN"],
    ["an empty token", "", 422, "VALIDATION_FAILED"],
    ["an oversized token", "x".repeat(129), 422, "VALIDATION_FAILED"],
  ])("%s: %d %s", async (_, token, status, code) => {
    const res = await confirmReset(token);
    expect(res.status).toBe(status);
    expect((await problemOf(res)).code).toBe(code);
  });

  test("a disabled account gets no link", async () => {
    const admin = await signIn(ctx, "admin");
    const reviewer = await signIn(ctx, "reviewer");
    await ctx.app.handle(
      as(admin, "PATCH", `/api/v1/staff/users/${reviewer.user.id}/`, { active: false }),
    );
    expect((await requestReset(reviewer.user.email)).status).toBe(202);
    expect(await eventsTo(ctx, reviewer.user.email)).toEqual([]);
  });
});

describe("change my password", () => {
  const change = (who: Awaited<ReturnType<typeof signIn>>, body: unknown) =>
    ctx.app.handle(as(who, "POST", "/api/v1/account/password/", body));

  test("keeps this sign-in, ends every other one, voids reset links, and tells the owner", async () => {
    const me = await signIn(ctx);
    const elsewhere = await logIn(ctx, me.user.email);
    await requestReset(me.user.email);
    const resetToken = tokenOf(await linkIn(ctx, me.user.email, "password_reset_requested"));

    const res = await change(me, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(204);
    expect(await credentialsWork(ctx, me)).toEqual(ALIVE);
    expect(await credentialsWork(ctx, elsewhere)).toEqual(ENDED);
    expect((await confirmReset(resetToken)).status).toBe(400);
    expect((await login(me.user.email, PASSWORD)).status).toBe(401);
    expect((await login(me.user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await eventsTo(ctx, me.user.email)).at(-1)).toBe("password_changed");
  });

  test("a wrong current password is 403 PASSWORD_INCORRECT and changes nothing", async () => {
    const me = await signIn(ctx);
    const res = await change(me, {
      currentPassword: "not-the-password",
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(403);
    expect((await problemOf(res)).code).toBe("PASSWORD_INCORRECT");
    expect((await login(me.user.email, PASSWORD)).status).toBe(200);
  });

  test.each([
    ["a short new password", { currentPassword: PASSWORD, newPassword: "short" }],
    ["no current password", { newPassword: NEW_PASSWORD }],
  ])("%s is 422", async (_, body) => {
    const me = await signIn(ctx);
    expect((await change(me, body)).status).toBe(422);
  });

  test("anonymous: 401", async () => {
    const res = await post(ctx, "/api/v1/account/password/", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(401);
  });
});

describe("an admin resets a staff member's password", () => {
  const reset = (who: Awaited<ReturnType<typeof signIn>>, id: string) =>
    ctx.app.handle(as(who, "POST", `/api/v1/staff/users/${id}/password-reset/`));

  test("emails them a reset link, ends their sign-ins at once, and is audited", async () => {
    const admin = await signIn(ctx, "admin");
    const reviewer = await signIn(ctx, "reviewer");
    const res = await reset(admin, reviewer.user.id);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      detail: `A reset link was emailed to ${reviewer.user.email}; 1 sign-in(s) ended`,
    });
    expect(await credentialsWork(ctx, reviewer)).toEqual(ENDED);
    // The old password still works until the link is used.
    expect((await login(reviewer.user.email, PASSWORD)).status).toBe(200);
    const link = await linkIn(ctx, reviewer.user.email, "password_reset_by_admin");
    expect((await confirmReset(tokenOf(link))).status).toBe(204);
    expect((await login(reviewer.user.email, NEW_PASSWORD)).status).toBe(200);

    const audit = await ctx.app.handle(
      as(admin, "GET", "/api/v1/staff/audit/?action=staff.password_reset"),
    );
    const entries = ((await audit.json()) as { results: { subject: { id: string } }[] }).results;
    expect(entries.map((e) => e.subject.id)).toContain(reviewer.user.id);
  });

  test("not a staff account, an unknown id, yourself, a deactivated account: refused", async () => {
    const admin = await signIn(ctx, "admin");
    const applicant = await signIn(ctx);
    const reviewer = await signIn(ctx, "reviewer");
    await ctx.app.handle(
      as(admin, "PATCH", `/api/v1/staff/users/${reviewer.user.id}/`, { active: false }),
    );
    const codes = [];
    for (const id of [applicant.user.id, crypto.randomUUID(), admin.user.id, reviewer.user.id]) {
      const res = await reset(admin, id);
      codes.push([res.status, (await problemOf(res)).code]);
    }
    expect(codes).toEqual([
      [404, "NOT_FOUND"],
      [404, "NOT_FOUND"],
      [409, "CANNOT_CHANGE_OWN_ACCOUNT"],
      [409, "CONFLICT"],
    ]);
    expect(await eventsTo(ctx, applicant.user.email)).not.toContain("password_reset_by_admin");
  });
});
