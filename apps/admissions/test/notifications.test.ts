import { afterAll, describe, expect, test } from "bun:test";
import type { Logger } from "@platform/server";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_DELIVERY_POLICY } from "../src/config.ts";
import { claimDueEmails } from "../src/modules/outbox/internal/queries.ts";
import type { OutboxEmail } from "../src/modules/outbox/model.ts";
import { deliverDueEmails, dropMailer, smtpMailer } from "../src/modules/outbox/service.ts";
import { runJobsOnce } from "../src/wiring.ts";
import { startSmtpServer } from "./smtp.ts";
import { type Paged, suiteWithStaff } from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  intakeWithSeats,
  submittedApplication,
  testJobs,
} from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const smtp = await startSmtpServer();
const mailer = smtpMailer(smtp.url, "Admissions Office <admissions@example.org>");
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

type OutboxJson = OutboxEmail;
const outboxOf = async (applicationId: string) =>
  (
    await expectJson<Paged<OutboxJson>>(
      await call(ctx, admin, "GET", `/api/v1/staff/outbox/?applicationId=${applicationId}`),
    )
  ).results;
const arrivedFor = (applicationId: string) =>
  smtp.messages.filter((m) => m.headers["x-admissions-application"] === applicationId);

/** Time travel within the access tokens' 15 minutes, undone after. */
async function later<T>(work: () => Promise<T>): Promise<T> {
  const start = ctx.clock.now();
  try {
    return await work();
  } finally {
    ctx.clock.set(start);
  }
}

describe("what applicants are told", () => {
  test("submission and the decision are emailed over SMTP; the review steps are not", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await applicationUnderReview(ctx, reviewer, intake.id);
    expect((await outboxOf(application.id)).map((m) => m.event)).toEqual(["submitted"]);
    const respondBy = new Date(ctx.clock.now() + 7 * 86_400_000).toISOString();
    await expectJson(
      await decide(ctx, admin, application.id, {
        decision: "conditional_offer",
        conditions: ["Grade B in Mathematics"],
        respondBy,
      }),
    );
    await runJobsOnce(testJobs(ctx, mailer));
    const arrived = arrivedFor(application.id);
    expect(arrived.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "conditionally_offered",
    ]);
    const offer = arrived[1];
    expect(offer?.to).toEqual([applicant.user.email]);
    expect(offer?.from).toBe("admissions@example.org");
    expect(offer?.subject).toStartWith("Conditional offer of a place");
    expect(offer?.text).toContain("- Grade B in Mathematics");
    expect(offer?.text).toContain(application.id);
    expect(offer?.headers["message-id"]).toMatch(/^<[0-9a-f-]{36}@admissions>$/);
    const statuses = await outboxOf(application.id);
    expect(statuses.every((m) => m.status === "sent" && m.attempts === 1)).toBe(true);
  });

  test("every email has an HTML alternative saying what its text says, escaped", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await applicationUnderReview(ctx, reviewer, intake.id);
    await expectJson(
      await decide(ctx, admin, application.id, {
        decision: "conditional_offer",
        conditions: ["<b>Grade A</b> & a link https://example.org/terms."],
        respondBy: new Date(ctx.clock.now() + 7 * 86_400_000).toISOString(),
      }),
    );
    await runJobsOnce(testJobs(ctx, mailer));
    const offer = arrivedFor(application.id)[1];
    expect(offer?.text).toContain("- <b>Grade A</b> & a link https://example.org/terms.");
    // Staff's text too is text: its URL is not made a link (only the platform's own are).
    expect(offer?.html).toContain(
      "<li>&lt;b&gt;Grade A&lt;/b&gt; &amp; a link https://example.org/terms.</li>",
    );
    expect(offer?.html).not.toContain("<a ");
    expect(offer?.html).toContain(application.id);
    expect(offer?.html).not.toContain("<b>");
  });

  test("a refused move writes no email: the outbox row is in the move's transaction", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 1);
    const first = await applicationUnderReview(ctx, reviewer, intake.id);
    const second = await applicationUnderReview(ctx, reviewer, intake.id);
    await expectJson(await decide(ctx, admin, first.application.id, { decision: "offer" }));
    const refused = await decide(ctx, admin, second.application.id, { decision: "offer" });
    expect((await problemOf(refused)).code).toBe("NO_SEATS_AVAILABLE");
    expect((await outboxOf(second.application.id)).map((m) => m.event)).toEqual(["submitted"]);
  });
});

describe("delivery", () => {
  test("a failed delivery is retried with backoff, and survives a restart", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await submittedApplication(ctx, intake.id);
    await later(async () => {
      smtp.control.refuse = true;
      const jobs = testJobs(ctx, mailer);
      await runJobsOnce(jobs);
      let [email] = await outboxOf(application.id);
      expect(email).toMatchObject({ status: "pending", attempts: 1 });
      expect(email?.lastError).toContain("451");
      expect(email?.nextAttemptAt).toBe(new Date(ctx.clock.now() + 30_000).toISOString());
      await runJobsOnce(jobs); // not due yet: untouched
      expect((await outboxOf(application.id))[0]?.attempts).toBe(1);
      ctx.clock.advance(30_000);
      await runJobsOnce(jobs);
      [email] = await outboxOf(application.id);
      expect(email?.attempts).toBe(2);
      expect(email?.nextAttemptAt).toBe(new Date(ctx.clock.now() + 60_000).toISOString());
      // "Restart": a new mailer and a new worker over the same database.
      smtp.control.refuse = false;
      const restarted = smtpMailer(smtp.url, "Admissions Office <admissions@example.org>");
      ctx.clock.advance(60_000);
      await runJobsOnce(testJobs(ctx, restarted));
      restarted.close();
      expect(arrivedFor(application.id)).toHaveLength(1);
      expect((await outboxOf(application.id))[0]).toMatchObject({ status: "sent", attempts: 3 });
    });
  });

  test("after the last attempt an email is dead, and kept for admins to see", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await submittedApplication(ctx, intake.id);
    await later(async () => {
      smtp.control.refuse = true;
      const policy = { ...DEFAULT_DELIVERY_POLICY, maxAttempts: 2, baseBackoffMs: 1_000 };
      const jobs = testJobs(ctx, mailer, policy);
      await runJobsOnce(jobs);
      ctx.clock.advance(1_000);
      await runJobsOnce(jobs);
      smtp.control.refuse = false;
      ctx.clock.advance(60_000);
      await runJobsOnce(jobs);
      expect(arrivedFor(application.id)).toHaveLength(0);
      expect((await outboxOf(application.id))[0]).toMatchObject({ status: "dead", attempts: 2 });
      const dead = await expectJson<Paged<OutboxJson>>(
        await call(ctx, admin, "GET", "/api/v1/staff/outbox/?status=dead"),
      );
      expect(dead.results.map((m) => m.applicationId)).toContain(application.id);
    });
  });

  test("an email claimed by a process that died is delivered once its lease ends", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await submittedApplication(ctx, intake.id);
    await later(async () => {
      const claimed = await claimDueEmails(ctx.db, ctx.clock.now(), 120_000, 100);
      expect(claimed.map((row) => row.application_id)).toContain(application.id);
      await runJobsOnce(testJobs(ctx, mailer)); // still leased: not sent twice
      expect(arrivedFor(application.id)).toHaveLength(0);
      ctx.clock.advance(120_000);
      await runJobsOnce(testJobs(ctx, mailer));
      expect(arrivedFor(application.id)).toHaveLength(1);
    });
  });

  test("passes running at once (replicas) send each email once", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const ids = [];
    for (let i = 0; i < 6; i++)
      ids.push((await submittedApplication(ctx, intake.id)).application.id);
    const deps = { ...testJobs(ctx, mailer), policy: { ...DEFAULT_DELIVERY_POLICY, batchSize: 2 } };
    await Promise.all([1, 2, 3, 4].map(() => deliverDueEmails(deps)));
    await deliverDueEmails(deps);
    await deliverDueEmails(deps);
    for (const id of ids) expect(arrivedFor(id)).toHaveLength(1);
  });

  test("without SMTP_URL the email is dropped: one line names it, never its content", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await submittedApplication(ctx, intake.id);
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const logger: Logger = {
      debug: () => {},
      info: (msg, fields) => lines.push([msg, fields]),
      warn: () => {},
      error: () => {},
      flush: async () => {},
    };
    const [email] = await outboxOf(application.id);
    await runJobsOnce({ ...testJobs(ctx, dropMailer(logger)) });
    const logged = lines.find(([, fields]) => fields?.emailId === email?.id);
    expect(logged?.[0]).toBe("email dropped (no SMTP_URL)");
    // The template, the recipient's domain and the id: never the address, subject or body.
    expect(logged?.[1]).toEqual({
      emailId: email?.id,
      event: "submitted",
      toDomain: applicant.user.email.split("@")[1],
      applicationId: application.id,
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(applicant.user.email);
    expect(text).not.toContain("Application received");
    expect(text).not.toContain(applicant.user.fullName);
    expect((await outboxOf(application.id))[0]).toMatchObject({ status: "sent" });
  });
});
