/**
 * No log line holds a token the platform gave out. One end-to-end run of every flow that emails
 * a link (registration's verification, password reset, email change, a referee's request and
 * reminder), through the app and the background pass that "delivers" the emails without SMTP
 * (the drop transport, where the emails used to be logged whole), with every line the app, its
 * work after responses and the jobs write kept, at debug level (a second registration of the
 * address, which emails its owner, included). Then each token the run was given, as it was
 * given and as it sits in a link, is looked for in every line.
 */
import { describe, expect, test } from "bun:test";
import { createLogger, memorySink } from "@platform/server";
import { DEFAULT_DELIVERY_POLICY } from "../src/config.ts";
import { afterResponse } from "../src/lib/after-response.ts";
import { dropMailer } from "../src/modules/outbox/service.ts";
import { sendRefereeReminders } from "../src/modules/references/service.ts";
import { runJobsOnce } from "../src/wiring.ts";
import {
  as,
  createDraft,
  json,
  logIn,
  PASSWORD,
  setupApp,
  signIn,
  type TestContext,
  uniqueEmail,
} from "./support.ts";
import { DAY, expectJson, intakeWithSeats, testJobs } from "./workflow-support.ts";

const sink = memorySink();
const logger = createLogger({ service: "admissions", level: "debug", sink });
const ctx = await setupApp({ logger, afterResponse: afterResponse(logger) });
const jobs = { ...testJobs(ctx, dropMailer(logger), DEFAULT_DELIVERY_POLICY), logger };

/** Every token the run was given. */
const given: string[] = [];

/**
 * The token of the newest `event` email to `to`, read from the outbox before it is delivered
 * (as its recipient would read it), then the pass that delivers it is run.
 */
async function tokenFrom(c: TestContext, to: string, event: string): Promise<string> {
  await c.deps.afterResponse?.settled();
  const [row] = (await c.db.run(
    (sql) => sql`SELECT body FROM email_outbox WHERE to_address = ${to} AND event = ${event}
      AND status = 'pending' ORDER BY created_at DESC, id DESC LIMIT 1`,
  )) as { body: string }[];
  const token = /[?&]token=([\w-]+)/.exec(row?.body ?? "")?.[1];
  if (!token) throw new Error(`no pending ${event} email with a link to ${to}`);
  given.push(token);
  await runJobsOnce(jobs);
  return token;
}

const post = (path: string, body: unknown, token?: string) =>
  ctx.app.handle(json("POST", path, body, token ? { token } : {}));

describe("tokens in logs", () => {
  test("an end-to-end run of every emailed link leaves none of its tokens in any log line", async () => {
    const admin = await signIn(ctx, "admin");
    const { intake } = await intakeWithSeats(ctx, admin);

    // Registration and its verification link.
    const email = uniqueEmail("logged");
    const registered = await post("/api/v1/auth/register/", {
      email,
      password: PASSWORD,
      fullName: "Ada Lovelace",
    });
    expect(registered.status).toBe(202);
    const verify = await tokenFrom(ctx, email, "email_verification");
    // The same address again: its owner is told (a notice with links, no token).
    const again = { email, password: "another-long-password", fullName: "Someone" };
    expect((await post("/api/v1/auth/register/", again)).status).toBe(202);
    expect(
      (await post("/api/v1/account/email-verification/confirm/", { token: verify })).status,
    ).toBe(204);

    // Forgotten password: the link, then the new password.
    expect((await post("/api/v1/account/password-reset/", { email })).status).toBe(202);
    const reset = await tokenFrom(ctx, email, "password_reset_requested");
    const newPassword = "a-new-long-password-1";
    expect(
      (await post("/api/v1/account/password-reset/confirm/", { token: reset, newPassword })).status,
    ).toBe(204);

    // Email change: the link to the new address.
    const session = await logIn(ctx, email, newPassword);
    const newEmail = uniqueEmail("moved");
    const change = await post(
      "/api/v1/account/email-change/",
      { newEmail, password: newPassword },
      session.accessToken,
    );
    expect(change.status).toBe(202);
    const changeToken = await tokenFrom(ctx, newEmail, "email_change_verification");
    expect(
      (await post("/api/v1/account/email-change/confirm/", { token: changeToken })).status,
    ).toBe(204);

    // A referee's request, opened; then, a week on, the reminder's new link.
    const applicant = await logIn(ctx, newEmail, newPassword);
    const draft = await createDraft(ctx, applicant, intake.id);
    const refereeEmail = uniqueEmail("referee");
    await expectJson(
      await ctx.app.handle(
        as(applicant, "POST", "/api/v1/references/", {
          applicationId: draft.id,
          name: "Charles Babbage",
          email: refereeEmail,
          relationship: "Project supervisor",
        }),
      ),
      201,
    );
    const request = await tokenFrom(ctx, refereeEmail, "reference_requested");
    expect((await post("/api/v1/references/link/", { token: request })).status).toBe(200);
    ctx.clock.advance(8 * DAY);
    const reminders = { ...jobs, ...ctx.deps, reminderIntervalMs: 7 * DAY };
    expect(
      await sendRefereeReminders({ ...reminders, portalUrl: "https://apply.example.edu" }),
    ).toBe(1);
    const reminder = await tokenFrom(ctx, refereeEmail, "reference_reminder");
    expect((await post("/api/v1/references/link/", { token: reminder })).status).toBe(200);
    // A wrong link's refusal is logged too (its access line, its problem).
    expect((await post("/api/v1/references/link/", { token: `${reminder}x` })).status).toBe(400);

    await ctx.deps.afterResponse?.settled();
    // Elysia writes a request's access line in a setImmediate after the answer: let the last
    // ones run before reading (the refused link's line, below, proves they did).
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    await logger.flush();
    const lines = sink.lines().map((line) => JSON.stringify(line));
    expect(given).toHaveLength(5);
    for (const token of given) {
      for (const form of [token, encodeURIComponent(token)]) {
        expect(lines.filter((l) => l.includes(form))).toEqual([]);
      }
    }
    // The run was logged: a line per request, one per email the pass dropped (the links and
    // the notices beside them: account exists, password changed, email change asked and made).
    expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThan(10);
    const refused = lines.filter(
      (l) => l.includes('"path":"/api/v1/references/link/"') && l.includes('"status":400'),
    );
    expect(refused).toHaveLength(1);
    const dropped = lines.filter((l) => l.includes('"msg":"email dropped (no SMTP_URL)"'));
    expect(dropped.length).toBeGreaterThanOrEqual(given.length + 4);
  });
});
