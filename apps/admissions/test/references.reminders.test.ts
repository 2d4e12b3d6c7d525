import { describe, expect, test } from "bun:test";
import { MAX_REMINDERS, sendRefereeReminders } from "../src/modules/references/service.ts";
import { runJobsOnce } from "../src/wiring.ts";
import {
  applicantWithDraft,
  codeOf,
  lastEmail,
  later,
  listOf,
  namedReferee,
  openLink,
  PORTAL,
  type ReferenceJson,
  referencesSuite,
  sendText,
} from "./references-support.ts";
import { takeLinkToken } from "./support.ts";
import { recordingMailer, testJobs } from "./workflow-support.ts";

// A database of its own: the counts below are of every referee due, so no other suite's.
const { ctx, intake, interval, reminders } = await referencesSuite();

describe("referee reminders", () => {
  test("one per interval, each with a new link (the old one dies), at most 3, none after receipt", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { reference, token } = await namedReferee(ctx, applicant, draft.id);
    const to = reference.refereeEmail;
    const start = ctx.clock.now();
    try {
      ctx.clock.set(start + interval - 60_000);
      expect(await sendRefereeReminders(reminders)).toBe(0);
      ctx.clock.set(start + interval);
      const passes = await Promise.all([1, 2, 3].map(() => sendRefereeReminders(reminders)));
      expect(passes.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await sendRefereeReminders(reminders)).toBe(0);
      const reminded = await takeLinkToken(ctx, to, "reference_reminder");
      expect(reminded).not.toBe(token);
      expect(await codeOf(await openLink(ctx, token))).toBe("INVALID_REFERENCE_LINK");
      expect((await openLink(ctx, reminded)).status).toBe(200);
      for (let n = 2; n <= MAX_REMINDERS + 1; n++) {
        ctx.clock.set(start + n * interval);
        expect(await sendRefereeReminders(reminders)).toBe(n <= MAX_REMINDERS ? 1 : 0);
      }
      const [row] = await ctx.db.run(
        (sql) =>
          sql`SELECT status, reminders_sent FROM reference_requests WHERE id = ${reference.id}`,
      );
      expect(row).toMatchObject({ status: "reminded" });
      expect(Number(row.reminders_sent)).toBe(MAX_REMINDERS);
      const last = await takeLinkToken(ctx, to, "reference_reminder");
      expect((await sendText(ctx, last)).status).toBe(204);
    } finally {
      ctx.clock.set(start);
    }
    const list = (await (await listOf(ctx, applicant, draft.id)).json()) as {
      references: ReferenceJson[];
    };
    expect(list.references[0]).toMatchObject({ status: "received", remindersSent: MAX_REMINDERS });
  });

  test("a received reference is never reminded; the background pass runs the reminders", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const answered = await namedReferee(ctx, applicant, draft.id);
    const silent = await namedReferee(ctx, applicant, draft.id);
    expect((await sendText(ctx, answered.token)).status).toBe(204);
    const { mailer, sent } = recordingMailer();
    const result = await later(ctx, interval, () =>
      runJobsOnce({
        ...testJobs(ctx, mailer),
        references: { reminderIntervalMs: interval, portalUrl: PORTAL },
      }),
    );
    expect(result.refereeReminders).toBeGreaterThanOrEqual(1);
    const toAnswered = sent.filter((email) => email.to === answered.reference.refereeEmail);
    expect(toAnswered.map((email) => email.event)).not.toContain("reference_reminder");
    const toSilent = sent.filter((email) => email.to === silent.reference.refereeEmail);
    expect(toSilent.map((email) => email.event)).toContain("reference_reminder");
    // Delivered: the stored copy no longer holds the link's token.
    const stored = await lastEmail(ctx, silent.reference.refereeEmail, "reference_reminder");
    expect(stored?.body).toContain("?token=(removed-after-delivery)");
  });
});
