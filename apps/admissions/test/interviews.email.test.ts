import { afterAll, describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { DEFAULT_DELIVERY_POLICY } from "../src/config.ts";
import { deliverDueEmails, smtpMailer } from "../src/modules/outbox/service.ts";
import { interviewsContext, invited, PATH } from "./interviews-support.ts";
import { startSmtpServer } from "./smtp.ts";
import { call, expectJson } from "./workflow-support.ts";

const { ctx, admin, reviewer, intake } = await interviewsContext();
const smtp = await startSmtpServer();
const mailer = smtpMailer(smtp.url, "Admissions Office <admissions@example.org>");
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const deliver = () =>
  deliverDueEmails({
    db: ctx.db,
    mailer,
    logger: createLogger({ service: "admissions", level: "silent" }),
    now: ctx.clock.now,
    policy: DEFAULT_DELIVERY_POLICY,
  });

describe("interview emails over SMTP", () => {
  test("text, HTML and the .ics attachment (text/calendar; method=REQUEST, then CANCEL)", async () => {
    const { slot, applicant } = await invited(ctx, admin, [reviewer], intake.id);
    await deliver();
    const invitation = smtp.messages.find(
      (m) => m.to.includes(applicant.user.email) && m.subject.startsWith("Interview invitation"),
    );
    expect(invitation?.text).toContain("You are invited to an interview");
    expect(invitation?.html).toContain("You are invited to an interview");
    // The meeting link is staff's text, not the platform's: shown, never made an anchor.
    expect(invitation?.html).toContain("Online: https://meet.example.org/room-1");
    expect(invitation?.html).not.toContain("<a ");
    expect(invitation?.attachments).toHaveLength(1);
    const [ics] = invitation?.attachments ?? [];
    expect(ics).toMatchObject({
      filename: "interview.ics",
      contentType: "text/calendar",
      params: { method: "REQUEST" },
    });
    expect(ics?.content).toContain(`UID:${slot.id}@admissions`);
    expect(ics?.content).toContain("\r\nEND:VCALENDAR\r\n");
    await expectJson(await call(ctx, admin, "POST", `${PATH}${slot.id}/cancel/`));
    await deliver();
    const cancel = smtp.messages.find(
      (m) => m.to.includes(applicant.user.email) && m.subject.startsWith("Interview cancelled"),
    );
    expect(cancel?.attachments[0]).toMatchObject({
      filename: "interview-cancelled.ics",
      params: { method: "CANCEL" },
    });
    expect(cancel?.attachments[0]?.content).toContain("SEQUENCE:1");
  });
});
