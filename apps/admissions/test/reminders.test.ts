import { describe, expect, test } from "bun:test";
import { DEFAULT_REMINDERS } from "../src/config.ts";
import {
  type RemindersDeps,
  sendAdminDigests,
  sendDecisionDueReminders,
  sendDraftDeadlineNotices,
} from "../src/modules/reminders/service.ts";
import { runJobsOnce } from "../src/wiring.ts";
import {
  createDraft,
  createIntake,
  createProgram,
  type Session,
  signIn,
  suiteWithStaff,
} from "./support.ts";
import {
  call,
  DAY,
  expectJson,
  intakeWithSeats,
  recordingMailer,
  submittedApplication,
  testJobs,
} from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const deps: RemindersDeps = { db: ctx.db, now: ctx.clock.now, reminders: DEFAULT_REMINDERS };
const HOUR = 3_600_000;

/** Access tokens live 15 minutes of the test clock: time travel is undone before HTTP calls. */
async function at<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const start = ctx.clock.now();
  ctx.clock.set(ms);
  try {
    return await work();
  } finally {
    ctx.clock.set(start);
  }
}

type Email = { event: string; to_address: string; subject: string; body: string };
const emailsTo = (address: string, event: string) =>
  ctx.db.run(
    (sql) => sql`SELECT event, to_address, subject, body FROM email_outbox
      WHERE to_address = ${address} AND event = ${event} ORDER BY created_at`,
  ) as Promise<Email[]>;

describe("draft deadline notices", () => {
  test("a draft near its deadline is told once, whatever the passes; others are not", async () => {
    const program = await createProgram(ctx, admin);
    const soon = await createIntake(ctx, admin, program.id, { closesInDays: 2 });
    const far = await createIntake(ctx, admin, program.id, { closesInDays: 20 });
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, soon.id);
    const other = await signIn(ctx);
    await createDraft(ctx, other, far.id);
    const submitted = await submittedApplication(ctx, soon.id);
    const counts = await Promise.all([
      sendDraftDeadlineNotices(deps),
      sendDraftDeadlineNotices(deps),
      sendDraftDeadlineNotices(deps),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await sendDraftDeadlineNotices(deps)).toBe(0);
    const sent = await emailsTo(applicant.user.email, "reminder.draft_deadline");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toContain(draft.id);
    expect(await emailsTo(other.user.email, "reminder.draft_deadline")).toEqual([]);
    expect(await emailsTo(submitted.applicant.user.email, "reminder.draft_deadline")).toEqual([]);
    // The far one's turn comes 3 days before its deadline; past a deadline, nothing.
    const notices = await at(ctx.clock.now() + 18 * DAY, () => sendDraftDeadlineNotices(deps));
    expect(notices).toBe(1);
    expect(await emailsTo(other.user.email, "reminder.draft_deadline")).toHaveLength(1);
    expect(await at(ctx.clock.now() + 30 * DAY, () => sendDraftDeadlineNotices(deps))).toBe(0);
  });
});

describe("the background pass", () => {
  test("writes the reminders due and delivers them in the same pass, once", async () => {
    const program = await createProgram(ctx, admin);
    const soon = await createIntake(ctx, admin, program.id, { closesInDays: 1 });
    const applicant = await signIn(ctx);
    await createDraft(ctx, applicant, soon.id);
    const { mailer, sent } = recordingMailer();
    const jobs = testJobs(ctx, mailer);
    const first = await runJobsOnce(jobs);
    expect(first.draftNotices).toBe(1);
    expect(await runJobsOnce(jobs)).toMatchObject({ draftNotices: 0 });
    const mine = sent.filter((m) => m.to === applicant.user.email);
    expect(mine.map((m) => m.event)).toEqual(["reminder.draft_deadline"]);
    expect(mine[0]?.applicationId).not.toBeNull();
  });
});

/** A program whose pool is `reviewer`, with an intake and a submitted application assigned. */
async function assignedApplication(who: Session = reviewer) {
  const { program, intake } = await intakeWithSeats(ctx, admin);
  await expectJson(
    await call(ctx, admin, "PUT", `/api/v1/staff/programs/${program.id}/reviewers/`, {
      reviewerIds: [who.user.id],
    }),
  );
  const { application } = await submittedApplication(ctx, intake.id);
  await expectJson(
    await call(ctx, admin, "POST", `/api/v1/applications/${application.id}/assignments/`, {}),
    201,
  );
  return { program, intake, application };
}

describe("reviewers' notifications", () => {
  test("a reviewer is emailed on assignment", async () => {
    const own = await signIn(ctx, "reviewer");
    const { application } = await assignedApplication(own);
    const sent = await emailsTo(own.user.email, "reviewer_assigned");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toContain(application.id);
  });

  test("decision due dates: admins set them; reviewers with work waiting are reminded once", async () => {
    const own = await signIn(ctx, "reviewer");
    const { intake } = await assignedApplication(own);
    const path = `/api/v1/staff/intakes/${intake.id}/decisions-due/`;
    const dueAt = new Date(ctx.clock.now() + 10 * DAY).toISOString();
    expect((await call(ctx, own, "PUT", path, { decisionsDueAt: dueAt })).status).toBe(403);
    const past = new Date(ctx.clock.now() - DAY).toISOString();
    expect((await call(ctx, admin, "PUT", path, { decisionsDueAt: past })).status).toBe(422);
    expect(
      await expectJson(await call(ctx, admin, "PUT", path, { decisionsDueAt: dueAt })),
    ).toEqual({ intakeId: intake.id, decisionsDueAt: dueAt });
    expect(await expectJson(await call(ctx, own, "GET", path))).toEqual({
      intakeId: intake.id,
      decisionsDueAt: dueAt,
    });
    // Ten days out: not yet (3 days before, by default).
    expect(await sendDecisionDueReminders(deps)).toBe(0);
    const eightDaysOn = ctx.clock.now() + 8 * DAY;
    const counts = await at(eightDaysOn, () =>
      Promise.all([sendDecisionDueReminders(deps), sendDecisionDueReminders(deps)]),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await at(eightDaysOn + HOUR, () => sendDecisionDueReminders(deps))).toBe(0);
    const sent = await emailsTo(own.user.email, "reminder.decisions_due");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toContain("1 application assigned to you still waits");
    // A new due date is a new reminder.
    const later = new Date(ctx.clock.now() + 20 * DAY).toISOString();
    await expectJson(await call(ctx, admin, "PUT", path, { decisionsDueAt: later }));
    expect(await at(ctx.clock.now() + 18 * DAY, () => sendDecisionDueReminders(deps))).toBe(1);
    // Cleared: nothing more.
    await expectJson(await call(ctx, admin, "PUT", path, { decisionsDueAt: null }));
    expect(await at(ctx.clock.now() + 18 * DAY + HOUR, () => sendDecisionDueReminders(deps))).toBe(
      0,
    );
  });
});

describe("admins' daily digest", () => {
  test("once a day per admin, from the configured hour, counting yesterday's submissions", async () => {
    const program = await createProgram(ctx, admin, { name: "Digest Studies" });
    const intake = await createIntake(ctx, admin, program.id);
    await submittedApplication(ctx, intake.id);
    await submittedApplication(ctx, intake.id);
    const tomorrow = Math.floor(ctx.clock.now() / DAY) * DAY + DAY;
    // Before the hour: nothing; from it: one per active admin, once.
    expect(await at(tomorrow + 6 * HOUR, () => sendAdminDigests(deps))).toBe(0);
    const first = await at(tomorrow + 8 * HOUR, () =>
      Promise.all([sendAdminDigests(deps), sendAdminDigests(deps)]),
    );
    expect(first.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await at(tomorrow + 20 * HOUR, () => sendAdminDigests(deps))).toBe(0);
    const sent = await emailsTo(admin.user.email, "reminder.admin_digest");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toContain(`Digest Studies (${program.code}): 2`);
    expect(await emailsTo(reviewer.user.email, "reminder.admin_digest")).toEqual([]);
    // The day after holds no submissions: no digest.
    expect(await at(tomorrow + DAY + 8 * HOUR, () => sendAdminDigests(deps))).toBe(0);
  });
});
