import { describe, expect, test } from "bun:test";
import type { FeedPage } from "../src/modules/events/model.ts";
import { HOUR, interviewsContext, invited, PATH } from "./interviews-support.ts";
import { call, expectJson } from "./workflow-support.ts";

// Every interview step with an application is an event in the change feed (and so a webhook),
// in the step's transaction, with statuses and times only.
const { ctx, admin, reviewer, intake } = await interviewsContext();

const interviewEvents = async (applicationId: string) => {
  const page = await expectJson<FeedPage>(
    await call(ctx, admin, "GET", "/api/v1/events/?after=0&limit=500&type=interview.invited"),
  );
  expect(page.events.every((e) => e.type === "interview.invited")).toBe(true);
  const all = await expectJson<FeedPage>(
    await call(ctx, admin, "GET", "/api/v1/events/?after=0&limit=500"),
  );
  return all.events.filter(
    (e) => e.applicationId === applicationId && e.type.startsWith("interview."),
  );
};

describe("interview events in the change feed", () => {
  test("invited, confirmed, reschedule asked, rescheduled, cancelled: in order, no notes", async () => {
    const { applicant, application, interview } = await invited(ctx, admin, [reviewer], intake.id);
    const at = `${PATH}${interview.id}/`;
    await expectJson(await call(ctx, applicant, "POST", `${at}confirm/`));
    await expectJson(
      await call(ctx, applicant, "POST", `${at}reschedule-request/`, { note: "A private note" }),
    );
    const startsAt = new Date(ctx.clock.now() + 72 * HOUR).toISOString();
    await expectJson(await call(ctx, admin, "POST", `${at}reschedule/`, { startsAt }));
    await expectJson(await call(ctx, admin, "POST", `${at}cancel/`, { note: "Panel ill" }));

    const events = await interviewEvents(application.id);
    expect(events.map((e) => [e.type, e.subject, e.data.status])).toEqual([
      ["interview.invited", { type: "interview", id: interview.id }, "invited"],
      ["interview.confirmed", { type: "interview", id: interview.id }, "confirmed"],
      [
        "interview.reschedule_requested",
        { type: "interview", id: interview.id },
        "reschedule_requested",
      ],
      ["interview.rescheduled", { type: "interview", id: interview.id }, "invited"],
      ["interview.cancelled", { type: "interview", id: interview.id }, "cancelled"],
    ]);
    expect(events[3]?.data.startsAt).toBe(startsAt);
    expect(events[4]?.data.by).toBe("staff");
    const text = JSON.stringify(events);
    expect(text).not.toContain("A private note");
    expect(text).not.toContain("Panel ill");
    expect(text).not.toContain(reviewer.user.id);
  });

  test("an application decided while invited: its interview's cancellation is an event too", async () => {
    const { application } = await invited(ctx, admin, [reviewer], intake.id, 96);
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/applications/${application.id}/decision/`, {
        decision: "reject",
      }),
    );
    const events = await interviewEvents(application.id);
    expect(events.map((e) => [e.type, e.data.by ?? null])).toEqual([
      ["interview.invited", null],
      ["interview.cancelled", "application moved"],
    ]);
  });
});
