import { afterAll, describe, expect, test } from "bun:test";
import { type Json, startJourneyStack } from "./journey-stack.ts";

// Issue 19's journey through the real gateway (journey-stack.ts): a referee writes a reference
// from the emailed link, the applicant is interviewed (an .ics invitation over SMTP), offered a
// place on a condition, accepts, the condition is met, and the place is deferred to the next
// intake. Every step over HTTP, on SQLite or PostgreSQL + Redis as the environment says.
const stack = await startJourneyStack();
const { base, smtp, admin, reviewer, register, emailsFor, program } = stack;
afterAll(stack.stop);

const DAY = 86_400_000;

/** The newest message to `to` with this event header, once it has arrived. */
async function mailTo(to: string, event: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = smtp.messages.findLast(
      (m) => m.to.includes(to) && m.headers["x-admissions-event"] === event,
    );
    if (found || Date.now() > deadline) return found;
    await Bun.sleep(50);
  }
}

const post = (path: string, body: unknown) =>
  fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("journey through the gateway: reference, interview, conditional offer, deferral", () => {
  test("every step over HTTP; the emails, the seats, the history and the audit chain agree", async () => {
    const { program: prog, intake } = await program(10);
    const later = await admin.call(
      "POST",
      `/api/v1/catalog/programs/${prog.id}/intakes/`,
      {
        term: "Spring",
        opensAt: new Date(Date.now() - DAY).toISOString(),
        deadline: new Date(Date.now() + 200 * DAY).toISOString(),
        capacity: 5,
      },
      201,
    );
    const ada = await register("Ada Applicant");
    const { id } = await ada.call("POST", "/api/v1/applications/", { intakeId: intake.id }, 201);

    // The applicant names a referee; the referee writes from the emailed link, no account.
    const refereeEmail = `referee-${crypto.randomUUID().slice(0, 8)}@example.org`;
    const reference = await ada.call(
      "POST",
      "/api/v1/references/",
      { applicationId: id, name: "Prof. Rita Referee", email: refereeEmail, relationship: "Tutor" },
      201,
    );
    await ada.call("POST", `/api/v1/applications/${id}/submit/`);
    const asked = await mailTo(refereeEmail, "reference_requested");
    const token = /\/references\/write\?token=([\w%-]+)/.exec(asked?.text ?? "")?.[1];
    expect(token).toBeString();
    const text = "Ada was the most careful student I have taught in ten years.";
    const written = await post("/api/v1/references/link/text/", {
      token: decodeURIComponent(token ?? ""),
      text,
    });
    expect(written.status).toBeLessThan(300);
    const again = await post("/api/v1/references/link/text/", {
      token: decodeURIComponent(token ?? ""),
      text,
    });
    expect(again.status).toBe(400);
    const listed = await ada.call<{ references: Json[] }>(
      "GET",
      `/api/v1/references/?applicationId=${id}`,
    );
    expect(listed.references.map((r) => r.status)).toEqual(["received"]);
    expect(JSON.stringify(listed)).not.toContain(text);
    const read = await admin.call("GET", `/api/v1/references/${reference.id}/`);
    expect(read).toMatchObject({ status: "received", text });

    // Review, then an interview: an .ics invitation arrives, the applicant confirms.
    await admin.call("POST", `/api/v1/applications/${id}/assignments/`, {}, 201);
    await reviewer.call("PUT", `/api/v1/applications/${id}/reviews/mine/`, {
      scores: { academics: 5, motivation: 4 },
      recommendation: "offer",
      comment: "Strong",
    });
    const slot = await admin.call(
      "POST",
      "/api/v1/interviews/",
      {
        startsAt: new Date(Date.now() + 2 * DAY).toISOString(),
        durationMinutes: 30,
        panel: [reviewer.user.id],
        meetingUrl: "https://meet.example.org/journey",
      },
      201,
    );
    const invitation = await admin.call("POST", `/api/v1/interviews/${slot.id}/invite/`, {
      applicationId: id,
    });
    expect(invitation.status).toBe("invited");
    expect((await ada.call("GET", `/api/v1/applications/${id}/`)).status).toBe("interviewing");
    const invite = await mailTo(ada.user.email as string, "interview_invited");
    expect(invite?.attachments[0]?.contentType).toContain("text/calendar");
    expect(invite?.attachments[0]?.content).toContain("METHOD:REQUEST");
    const confirmed = await ada.call("POST", `/api/v1/interviews/${slot.id}/confirm/`);
    expect(confirmed.status).toBe("confirmed");

    // A conditional offer from the interview; accepted; the condition met by staff.
    const offered = await admin.call("POST", `/api/v1/applications/${id}/decision/`, {
      decision: "conditional_offer",
      conditions: ["Final transcript with a B average"],
    });
    expect(offered.status).toBe("conditionally_offered");
    await ada.call("POST", `/api/v1/applications/${id}/accept/`);
    const { conditions } = await ada.call<{ conditions: Json[] }>(
      "GET",
      `/api/v1/applications/${id}/conditions/`,
    );
    expect(conditions.map((c) => c.status)).toEqual(["pending"]);
    await admin.call("PATCH", `/api/v1/applications/${id}/conditions/${conditions[0]?.id}/`, {
      status: "met",
    });
    const settled = await ada.call<{ conditions: Json[] }>(
      "GET",
      `/api/v1/applications/${id}/conditions/`,
    );
    expect(settled.conditions.map((c) => c.status)).toEqual(["met"]);

    // Deferred to the spring intake: the seat moves with it.
    const deferral = await ada.call(
      "POST",
      `/api/v1/applications/${id}/deferrals/`,
      { toIntakeId: later.id, reason: "A year abroad first" },
      201,
    );
    await admin.call("POST", `/api/v1/applications/${id}/deferrals/${deferral.id}/approve/`, {
      note: "Approved",
    });
    const moved = await ada.call("GET", `/api/v1/applications/${id}/`);
    expect(moved).toMatchObject({ status: "accepted", intake: { id: later.id } });
    const seats = (intakeId: string) =>
      admin.call("GET", `/api/v1/staff/intakes/${intakeId}/seats/`);
    expect(await seats(intake.id)).toMatchObject({ taken: 0 });
    expect(await seats(later.id)).toMatchObject({ taken: 1 });

    const history = await ada.call<{ results: { to: string }[] }>(
      "GET",
      `/api/v1/applications/${id}/history/`,
    );
    expect(history.results.map((t) => t.to)).toEqual([
      "draft",
      "submitted",
      "under_review",
      "interviewing",
      "conditionally_offered",
      "accepted",
      "accepted",
    ]);
    const emails = await emailsFor(id, ["submitted", "conditionally_offered", "accepted"]);
    expect(emails.map((m) => m.headers["x-admissions-event"])).toEqual(
      expect.arrayContaining(["submitted", "conditionally_offered", "accepted"]),
    );
    // Nothing in the audit log was changed behind the chain's back.
    const verified = await admin.call("GET", "/api/v1/staff/audit/verify/");
    expect(verified).toMatchObject({ ok: true });
    // The interview and the moves are in the change feed, in order.
    // Read to its end: on a database other test files share, more than a page comes before.
    const mine: string[] = [];
    for (let after = 0, more = true; more; ) {
      const page = await admin.call<{
        events: { type: string; applicationId: string | null }[];
        next: number;
        hasMore: boolean;
      }>("GET", `/api/v1/events/?after=${after}&limit=500`);
      mine.push(...page.events.filter((e) => e.applicationId === id).map((e) => e.type));
      after = page.next;
      more = page.hasMore;
    }
    expect(mine).toEqual(
      expect.arrayContaining(["application.created", "interview.invited", "interview.confirmed"]),
    );
  }, 60_000);
});
