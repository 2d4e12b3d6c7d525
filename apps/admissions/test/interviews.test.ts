import { describe, expect, test } from "bun:test";
import type { Interview } from "../src/modules/interviews/model.ts";
import type { ApplicationReviews } from "../src/modules/review/model.ts";
import { type RequestJson, requestErasure } from "./data-rights-support.ts";
import {
  createSlot,
  HOUR,
  interviewsContext,
  invited,
  outboxEmail,
  PATH,
  slotBody,
} from "./interviews-support.ts";
import { type ApplicationJson, PASSWORD, type Paged, signIn } from "./support.ts";
import {
  applicationUnderReview,
  call,
  expectJson,
  problemWith,
  submittedApplication,
} from "./workflow-support.ts";

const { ctx, admin, reviewer, reviewer2, intake } = await interviewsContext();
const post = (who: typeof admin, path: string, body?: unknown) =>
  call(ctx, who, "POST", path, body);
/**
 * Ten minutes on: a slot made 6 minutes ahead (0.1 h) has started. Access tokens live 15
 * minutes by the app's clock, so "the past" is reached by short steps, not hours.
 */
const STARTED = 10 * 60_000;
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");

describe("slots", () => {
  test("an admin opens a slot: times, link, panel; the audit log records it", async () => {
    const body = slotBody(ctx, [reviewer, admin], 24, 45);
    const slot = await createSlot(ctx, admin, body);
    expect(slot).toMatchObject({
      status: "open",
      applicationId: null,
      startsAt: body.startsAt,
      endsAt: new Date(Date.parse(body.startsAt) + 45 * 60_000).toISOString(),
      meetingUrl: "https://meet.example.org/room-1",
      location: null,
      sequence: 0,
    });
    expect(slot.panel.map((p) => p.id).sort()).toEqual([reviewer.user.id, admin.user.id].sort());
    const [entry] = (await ctx.db.run(
      (sql) => sql`SELECT action FROM audit_log WHERE subject_id = ${slot.id}`,
    )) as { action: string }[];
    expect(entry?.action).toBe("interview.created");
  });

  test("validation: past start, place and link both or neither, panel of non-staff or unknown ids", async () => {
    const applicant = await signIn(ctx);
    const cases: [Record<string, unknown>, string][] = [
      [slotBody(ctx, [reviewer], -1), "/body/startsAt"],
      [
        slotBody(ctx, [reviewer], 24, 30, { location: "Room 1", meetingUrl: "https://x.org/a" }),
        "/body",
      ],
      [slotBody(ctx, [reviewer], 24, 30, {}), "/body"],
      [slotBody(ctx, [reviewer, applicant]), "/body/panel/1"],
      [{ ...slotBody(ctx, [reviewer]), panel: ["no-such-user"] }, "/body/panel/0"],
    ];
    for (const [body, path] of cases) {
      const res = await post(admin, PATH, body);
      expect(res.status).toBe(422);
      const problem = await problemWith(res);
      expect((problem.errors as { path: string }[])[0]?.path).toBe(path);
    }
    for (const body of [
      { ...slotBody(ctx, [reviewer]), durationMinutes: 2 },
      { ...slotBody(ctx, [reviewer]), panel: [] },
      { ...slotBody(ctx, [reviewer]), meetingUrl: "http://plain.example.org" },
      { ...slotBody(ctx, [reviewer]), meetingUrl: "javascript:alert(1)" },
    ]) {
      expect((await post(admin, PATH, body)).status).toBe(422);
    }
  });

  test("only admins open slots; applicants and reviewers get 403", async () => {
    const applicant = await signIn(ctx);
    for (const who of [applicant, reviewer]) {
      const res = await post(who, PATH, slotBody(ctx, [reviewer]));
      expect(res.status).toBe(403);
    }
  });
});

describe("clash detection", () => {
  test("a panel member cannot sit on two overlapping slots: 409 INTERVIEW_CLASH names them", async () => {
    const busy = await signIn(ctx, "reviewer");
    const first = await createSlot(ctx, admin, slotBody(ctx, [busy], 100, 60));
    const overlapping = await post(admin, PATH, slotBody(ctx, [reviewer2, busy], 100.5, 60));
    expect(overlapping.status).toBe(409);
    const problem = await problemWith(overlapping);
    expect(problem.code).toBe("INTERVIEW_CLASH");
    expect(problem.clashes).toEqual([{ userId: busy.user.id, interviewId: first.id }]);
    // Starting inside, containing, or contained: all clash.
    expect((await post(admin, PATH, slotBody(ctx, [busy], 99.5, 180))).status).toBe(409);
    expect((await post(admin, PATH, slotBody(ctx, [busy], 100.25, 15))).status).toBe(409);
    // Back to back is not a clash, nor is another member at the same time.
    expect((await post(admin, PATH, slotBody(ctx, [busy], 101, 30))).status).toBe(201);
    expect((await post(admin, PATH, slotBody(ctx, [busy], 99, 60))).status).toBe(201);
    expect((await post(admin, PATH, slotBody(ctx, [reviewer2], 100, 60))).status).toBe(201);
  });

  test("two admins booking one person at once: one slot is made, the other is a clash", async () => {
    const busy = await signIn(ctx, "reviewer");
    const other = await signIn(ctx, "admin");
    const statuses = (
      await Promise.all([
        post(admin, PATH, slotBody(ctx, [busy], 150, 60)),
        post(other, PATH, slotBody(ctx, [reviewer2, busy], 150.5, 60)),
      ])
    ).map((res) => res.status);
    expect(statuses.sort()).toEqual([201, 409]);
  });

  test("a cancelled slot frees its panel; a reschedule onto a busy time clashes", async () => {
    const busy = await signIn(ctx, "reviewer");
    const a = await createSlot(ctx, admin, slotBody(ctx, [busy], 200, 60));
    const b = await createSlot(ctx, admin, slotBody(ctx, [busy], 210, 60));
    const onto = await post(admin, `${PATH}${b.id}/reschedule/`, {
      startsAt: a.startsAt,
    });
    expect(onto.status).toBe(409);
    expect((await problemWith(onto)).code).toBe("INTERVIEW_CLASH");
    // Rescheduling a slot over its own old time is not a clash with itself.
    const later = new Date(Date.parse(a.startsAt) + 30 * 60_000).toISOString();
    expect((await post(admin, `${PATH}${a.id}/reschedule/`, { startsAt: later })).status).toBe(200);
    await expectJson(await post(admin, `${PATH}${a.id}/cancel/`, { note: "Room unavailable" }));
    expect((await post(admin, `${PATH}${b.id}/reschedule/`, { startsAt: a.startsAt })).status).toBe(
      200,
    );
  });
});

describe("invitations", () => {
  test("inviting moves the application to interviewing and emails the .ics (REQUEST, SEQUENCE 0)", async () => {
    const { slot, applicant, application, interview } = await invited(
      ctx,
      admin,
      [reviewer],
      intake.id,
    );
    expect(interview).toMatchObject({ status: "invited", applicationId: application.id });
    const now = await expectJson<ApplicationJson>(
      await call(ctx, applicant, "GET", `/api/v1/applications/${application.id}/`),
    );
    expect(now.status).toBe("interviewing");
    const history = await expectJson<Paged<{ from: string; to: string }>>(
      await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/history/`),
    );
    expect(history.results.at(-1)).toMatchObject({ from: "under_review", to: "interviewing" });
    const { count, latest } = await outboxEmail(ctx, application.id, "interview_invited");
    expect(count).toBe(1);
    expect(latest?.to_address).toBe(applicant.user.email);
    expect(latest?.body).toContain("When: ");
    expect(latest?.body).toContain("Online: https://meet.example.org/room-1");
    expect(latest?.attachment_name).toBe("interview.ics");
    expect(latest?.attachment_type).toBe("text/calendar; charset=utf-8; method=REQUEST");
    const ics = unfold(latest?.attachment_content ?? "");
    expect(ics).toContain("\r\nMETHOD:REQUEST\r\n");
    expect(ics).toContain(`\r\nUID:${slot.id}@admissions\r\n`);
    expect(ics).toContain("\r\nSEQUENCE:0\r\n");
    expect(ics).toContain(`mailto:${applicant.user.email}`);
    expect(ics).toContain('ORGANIZER;CN="Admissions Office":mailto:admissions@localhost');
    // Moving into interviewing sends no status email of its own: the invitation is the news.
    const statusEmails = await outboxEmail(ctx, application.id, "interviewing");
    expect(statusEmails.count).toBe(0);
  });

  test("refused: a taken or cancelled slot, a past slot, an application not under review, a second live interview", async () => {
    const { slot, application } = await invited(ctx, admin, [reviewer], intake.id, 300);
    const other = await applicationUnderReview(ctx, reviewer, intake.id);
    const taken = await post(admin, `${PATH}${slot.id}/invite/`, {
      applicationId: other.application.id,
    });
    expect((await problemWith(taken)).code).toBe("INTERVIEW_NOT_OPEN");
    const second = await createSlot(ctx, admin, slotBody(ctx, [reviewer2], 310));
    const twice = await post(admin, `${PATH}${second.id}/invite/`, {
      applicationId: application.id,
    });
    expect(twice.status).toBe(409);
    expect((await problemWith(twice)).code).toBe("INTERVIEW_ALREADY_SCHEDULED");
    const submitted = await submittedApplication(ctx, intake.id);
    const early = await post(admin, `${PATH}${second.id}/invite/`, {
      applicationId: submitted.application.id,
    });
    expect((await problemWith(early)).code).toBe("INTERVIEW_NOT_ALLOWED");
    const soon = await createSlot(ctx, admin, slotBody(ctx, [await signIn(ctx, "reviewer")], 0.1));
    ctx.clock.advance(STARTED);
    try {
      const past = await post(admin, `${PATH}${soon.id}/invite/`, {
        applicationId: other.application.id,
      });
      expect((await problemWith(past)).code).toBe("INTERVIEW_CLOSED");
    } finally {
      ctx.clock.advance(-STARTED);
    }
    await expectJson(await post(admin, `${PATH}${second.id}/cancel/`));
    const cancelled = await post(admin, `${PATH}${second.id}/invite/`, {
      applicationId: other.application.id,
    });
    expect((await problemWith(cancelled)).code).toBe("INTERVIEW_NOT_OPEN");
    const third = await createSlot(ctx, admin, slotBody(ctx, [reviewer2], 320));
    const missing = await post(admin, `${PATH}${third.id}/invite/`, { applicationId: "nope" });
    expect(missing.status).toBe(404);
    expect((await post(admin, `${PATH}nope/invite/`, { applicationId: "x" })).status).toBe(404);
    expect(
      (await post(reviewer, `${PATH}${second.id}/invite/`, { applicationId: "x" })).status,
    ).toBe(403);
  });

  test("a panel member with a declared conflict of interest: 409 REVIEWER_CONFLICTED", async () => {
    const conflicted = await signIn(ctx, "reviewer");
    const slot = await createSlot(ctx, admin, slotBody(ctx, [conflicted], 400));
    const { application } = await applicationUnderReview(ctx, reviewer, intake.id);
    await expectJson(
      await post(conflicted, `/api/v1/applications/${application.id}/conflict-of-interest/`, {
        reason: "My cousin",
      }),
    );
    const res = await post(admin, `${PATH}${slot.id}/invite/`, { applicationId: application.id });
    expect((await problemWith(res)).code).toBe("REVIEWER_CONFLICTED");
    // Invited to another panel's slot, the interview stays out of the conflicted reviewer's view.
    const { interview } = await (async () => {
      const other = await createSlot(ctx, admin, slotBody(ctx, [reviewer2], 410));
      return {
        interview: await expectJson<Interview>(
          await post(admin, `${PATH}${other.id}/invite/`, { applicationId: application.id }),
        ),
      };
    })();
    const hidden = await call(ctx, conflicted, "GET", `${PATH}${interview.id}/`);
    expect(hidden.status).toBe(403);
    expect((await problemWith(hidden)).code).toBe("CONFLICT_OF_INTEREST");
    // Its calendar file too (it names the applicant).
    const file = await call(ctx, conflicted, "GET", `${PATH}${interview.id}/calendar/`);
    expect(file.status).toBe(403);
    expect((await problemWith(file)).code).toBe("CONFLICT_OF_INTEREST");
    const listed = await expectJson<{ results: Interview[] }>(
      await call(ctx, conflicted, "GET", `${PATH}?applicationId=${application.id}`),
    );
    expect(listed.results).toEqual([]);
    const seen = await expectJson<{ results: Interview[] }>(
      await call(ctx, reviewer, "GET", `${PATH}?applicationId=${application.id}`),
    );
    expect(seen.results.map((i) => i.id)).toEqual([interview.id]);
  });
});

describe("the applicant's side", () => {
  test("sees only their own interviews, without panel or scores; others' are 404", async () => {
    const { slot, applicant } = await invited(ctx, admin, [reviewer], intake.id, 500);
    const stranger = await signIn(ctx);
    const mine = await expectJson<Interview>(
      await call(ctx, applicant, "GET", `${PATH}${slot.id}/`),
    );
    expect(mine).toMatchObject({ id: slot.id, panel: [], scores: [] });
    const list = await expectJson<{ results: Interview[] }>(
      await call(ctx, applicant, "GET", PATH),
    );
    expect(list.results.map((i) => i.id)).toEqual([slot.id]);
    const theirs = await expectJson<{ results: Interview[] }>(
      await call(ctx, stranger, "GET", `${PATH}?applicationId=${slot.id}`),
    );
    expect(theirs.results).toEqual([]);
    const open = await createSlot(ctx, admin, slotBody(ctx, [reviewer2], 510));
    for (const path of [`${PATH}${slot.id}/`, `${PATH}${open.id}/`, `${PATH}nope/`]) {
      const res = await call(ctx, stranger, "GET", path);
      expect(res.status).toBe(404);
    }
    for (const action of ["confirm", "reschedule-request", "cancel"]) {
      expect((await post(stranger, `${PATH}${slot.id}/${action}/`)).status).toBe(404);
    }
    // Staff see the panel; a panel member can list their own interviews.
    const staffView = await expectJson<Interview>(
      await call(ctx, admin, "GET", `${PATH}${slot.id}/`),
    );
    expect(staffView.panel.map((p) => p.id)).toEqual([reviewer.user.id]);
    const onPanel = await expectJson<{ results: Interview[] }>(
      await call(ctx, reviewer2, "GET", `${PATH}?mine=true&status=open`),
    );
    expect(onPanel.results.map((i) => i.id)).toContain(open.id);
    expect(onPanel.results.every((i) => i.panel.some((p) => p.id === reviewer2.user.id))).toBe(
      true,
    );
  });

  test("confirm (twice is the same), ask for another time, then an admin reschedules: SEQUENCE 1", async () => {
    const { slot, applicant, application } = await invited(ctx, admin, [reviewer], intake.id, 600);
    const confirmed = await expectJson<Interview>(
      await post(applicant, `${PATH}${slot.id}/confirm/`),
    );
    expect(confirmed.status).toBe("confirmed");
    expect(
      (await expectJson<Interview>(await post(applicant, `${PATH}${slot.id}/confirm/`))).status,
    ).toBe("confirmed");
    const asked = await expectJson<Interview>(
      await post(applicant, `${PATH}${slot.id}/reschedule-request/`, { note: "Exam that day" }),
    );
    expect(asked).toMatchObject({ status: "reschedule_requested", applicantNote: "Exam that day" });
    const again = await post(applicant, `${PATH}${slot.id}/reschedule-request/`);
    expect((await problemWith(again)).code).toBe("INTERVIEW_STATE_CONFLICT");
    const confirmNow = await post(applicant, `${PATH}${slot.id}/confirm/`);
    expect((await problemWith(confirmNow)).code).toBe("INTERVIEW_STATE_CONFLICT");
    expect((await post(admin, `${PATH}${slot.id}/confirm/`)).status).toBe(403);
    const startsAt = new Date(ctx.clock.now() + 620 * HOUR).toISOString();
    const moved = await expectJson<Interview>(
      await post(admin, `${PATH}${slot.id}/reschedule/`, { startsAt, location: "Room 12" }),
    );
    expect(moved).toMatchObject({
      status: "invited",
      startsAt,
      location: "Room 12",
      meetingUrl: null,
      sequence: 1,
    });
    const { latest } = await outboxEmail(ctx, application.id, "interview_rescheduled");
    const ics = unfold(latest?.attachment_content ?? "");
    expect(ics).toContain(`\r\nUID:${slot.id}@admissions\r\n`);
    expect(ics).toContain("\r\nSEQUENCE:1\r\n");
    expect(ics).toContain("\r\nMETHOD:REQUEST\r\n");
    expect(ics).toContain("\r\nLOCATION:Room 12\r\n");
    expect(latest?.body).toContain("In person: Room 12");
    expect(
      (await expectJson<Interview>(await post(applicant, `${PATH}${slot.id}/confirm/`))).status,
    ).toBe("confirmed");
  });

  test("the calendar file: the invited applicant's event (PUBLISH, the emails' UID and SEQUENCE); nobody else's", async () => {
    const { slot, applicant } = await invited(ctx, admin, [reviewer], intake.id, 650);
    const file = await call(ctx, applicant, "GET", `${PATH}${slot.id}/calendar/`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/calendar; charset=utf-8; method=PUBLISH");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="interview.ics"');
    const ics = unfold(await file.text());
    expect(ics).toContain("\r\nMETHOD:PUBLISH\r\n");
    expect(ics).toContain(`\r\nUID:${slot.id}@admissions\r\n`);
    expect(ics).toContain("\r\nSEQUENCE:0\r\n");
    expect(ics).toContain("\r\nURL:https://meet.example.org/room-1\r\n");
    // Another applicant, and a slot nobody is invited to: the same 404 as no interview, and 409.
    const stranger = await signIn(ctx, "applicant");
    expect((await call(ctx, stranger, "GET", `${PATH}${slot.id}/calendar/`)).status).toBe(404);
    const open = await createSlot(ctx, admin, slotBody(ctx, [reviewer2], 660));
    const empty = await call(ctx, admin, "GET", `${PATH}${open.id}/calendar/`);
    expect((await problemWith(empty)).code).toBe("INTERVIEW_NOT_ALLOWED");
    await post(applicant, `${PATH}${slot.id}/cancel/`, { note: "Accepted elsewhere" });
    const gone = await call(ctx, applicant, "GET", `${PATH}${slot.id}/calendar/`);
    expect((await problemWith(gone)).code).toBe("INTERVIEW_CLOSED");
  });

  test("the applicant cancels: CANCEL with a higher SEQUENCE; then nothing more can be done", async () => {
    const { slot, applicant, application } = await invited(ctx, admin, [reviewer], intake.id, 700);
    const cancelled = await expectJson<Interview>(
      await post(applicant, `${PATH}${slot.id}/cancel/`, { note: "Accepted elsewhere" }),
    );
    expect(cancelled).toMatchObject({ status: "cancelled", sequence: 1 });
    const { latest } = await outboxEmail(ctx, application.id, "interview_cancelled");
    expect(latest?.attachment_type).toBe("text/calendar; charset=utf-8; method=CANCEL");
    const ics = unfold(latest?.attachment_content ?? "");
    expect(ics).toContain("\r\nMETHOD:CANCEL\r\n");
    expect(ics).toContain("\r\nSTATUS:CANCELLED\r\n");
    expect(ics).toContain("\r\nSEQUENCE:1\r\n");
    expect(ics).toContain(`\r\nUID:${slot.id}@admissions\r\n`);
    for (const [who, action] of [
      [applicant, "confirm"],
      [applicant, "reschedule-request"],
      [applicant, "cancel"],
      [admin, "cancel"],
    ] as const) {
      const res = await post(who, `${PATH}${slot.id}/${action}/`);
      expect((await problemWith(res)).code).toBe("INTERVIEW_CLOSED");
    }
    const res = await post(admin, `${PATH}${slot.id}/reschedule/`, {
      startsAt: new Date(ctx.clock.now() + 800 * HOUR).toISOString(),
    });
    expect((await problemWith(res)).code).toBe("INTERVIEW_CLOSED");
    // The application stays interviewing, ready for another slot.
    const app = await expectJson<ApplicationJson>(
      await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/`),
    );
    expect(app.status).toBe("interviewing");
    const next = await createSlot(ctx, admin, slotBody(ctx, [reviewer], 720));
    expect(
      (await post(admin, `${PATH}${next.id}/invite/`, { applicationId: application.id })).status,
    ).toBe(200);
  });

  test("an admin cancels with a reason the applicant is told; past interviews are closed to the applicant", async () => {
    const panelist = await signIn(ctx, "reviewer");
    const { slot, applicant, application } = await invited(ctx, admin, [panelist], intake.id, 0.1);
    ctx.clock.advance(STARTED);
    try {
      for (const action of ["confirm", "reschedule-request", "cancel"]) {
        const res = await post(applicant, `${PATH}${slot.id}/${action}/`);
        expect((await problemWith(res)).code).toBe("INTERVIEW_CLOSED");
      }
    } finally {
      ctx.clock.advance(-STARTED);
    }
    await expectJson(await post(admin, `${PATH}${slot.id}/cancel/`, { note: "Panel ill" }));
    const { latest } = await outboxEmail(ctx, application.id, "interview_cancelled");
    expect(latest?.body).toContain("Reason: Panel ill");
    expect((await post(panelist, `${PATH}${slot.id}/cancel/`)).status).toBe(403);
  });
});

describe("scores feed the review", () => {
  test("panel members score once it has started, on the rubric's scale; the mean shows beside the review total", async () => {
    const one = await signIn(ctx, "reviewer");
    const two = await signIn(ctx, "reviewer");
    const { slot, application } = await invited(ctx, admin, [one, two], intake.id, 0.1);
    const score = (who: typeof admin, body: unknown) =>
      call(ctx, who, "PUT", `${PATH}${slot.id}/scores/mine/`, body);
    const early = await score(one, { score: 4 });
    expect((await problemWith(early)).code).toBe("INTERVIEW_NOT_HELD");
    ctx.clock.advance(STARTED);
    try {
      const notPanel = await score(admin, { score: 4 });
      expect(notPanel.status).toBe(403);
      expect((await problemWith(notPanel)).code).toBe("NOT_ON_PANEL");
      const applicant = await signIn(ctx);
      expect((await score(applicant, { score: 4 })).status).toBe(403);
      const outside = await score(one, { score: 6 });
      expect(outside.status).toBe(422);
      expect((await problemWith(outside)).errors).toEqual([
        {
          path: "/body/score",
          message: "must be within the rubric's scale 1–5",
          rule: "maximum",
          limit: 5,
        },
      ]);
      expect((await score(one, { score: "4" })).status).toBe(422);
      await expectJson(await score(one, { score: 3, comment: "Nervous start" }));
      await expectJson(await score(one, { score: 4, comment: "Strong finish" }));
      const both = await expectJson<Interview>(await score(two, { score: 5 }));
      expect(both.scores.map((s) => [s.panelist.id, s.score])).toEqual([
        [one.user.id, 4],
        [two.user.id, 5],
      ]);
      const reviews = await expectJson<ApplicationReviews>(
        await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/reviews/`),
      );
      expect(reviews.interview).toEqual({ score: 4.5, scores: 2 });
      // Back to under_review (a reviewer may), then a decision: scores close with the review.
      await expectJson(
        await post(one, `/api/v1/applications/${application.id}/transitions/`, {
          to: "under_review",
        }),
      );
      await expectJson(
        await post(admin, `/api/v1/applications/${application.id}/decision/`, {
          decision: "reject",
        }),
      );
      const closed = await score(one, { score: 2 });
      expect((await problemWith(closed)).code).toBe("REVIEWS_CLOSED");
      // An interview already held is not cancelled by the decision: its scores stay on record.
      const held = await expectJson<Interview>(await call(ctx, admin, "GET", `${PATH}${slot.id}/`));
      expect(held.status).toBe("invited");
      expect(held.scores).toHaveLength(2);
    } finally {
      ctx.clock.advance(-STARTED);
    }
  });

  test("no rubric: 409 RUBRIC_MISSING; no interview: the review's summary is empty", async () => {
    const { application } = await applicationUnderReview(ctx, reviewer, intake.id);
    const reviews = await expectJson<ApplicationReviews>(
      await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/reviews/`),
    );
    expect(reviews.interview).toEqual({ score: null, scores: 0 });
    const { intake: bare } = await (await import("./workflow-support.ts")).intakeWithSeats(
      ctx,
      admin,
    );
    const panelist = await signIn(ctx, "reviewer");
    const { slot } = await invited(ctx, admin, [panelist], bare.id, 0.1);
    ctx.clock.advance(STARTED);
    try {
      const res = await call(ctx, panelist, "PUT", `${PATH}${slot.id}/scores/mine/`, {
        score: 3,
      });
      expect((await problemWith(res)).code).toBe("RUBRIC_MISSING");
    } finally {
      ctx.clock.advance(-STARTED);
    }
  });
});

describe("interviewing in the lifecycle", () => {
  test("admins decide straight from interviewing, the applicant may withdraw: interviews to come are cancelled", async () => {
    const a = await invited(ctx, admin, [reviewer], intake.id, 900);
    const refused = await post(reviewer, `/api/v1/applications/${a.application.id}/decision/`, {
      decision: "offer",
    });
    expect(refused.status).toBe(403);
    const offered = await expectJson<ApplicationJson>(
      await post(admin, `/api/v1/applications/${a.application.id}/decision/`, {
        decision: "offer",
      }),
    );
    expect(offered.status).toBe("offered");
    const b = await invited(ctx, admin, [reviewer2], intake.id, 910);
    const withdrawn = await expectJson<ApplicationJson>(
      await post(b.applicant, `/api/v1/applications/${b.application.id}/withdraw/`, {
        reason: "Changed my mind",
      }),
    );
    expect(withdrawn.status).toBe("withdrawn");
    // Both interviews were still to come: cancelled with the move, the applicants sent a CANCEL,
    // the panels free again at those times.
    for (const { slot, application } of [a, b]) {
      const after = await expectJson<Interview>(
        await call(ctx, admin, "GET", `${PATH}${slot.id}/`),
      );
      expect(after).toMatchObject({ status: "cancelled", sequence: 1 });
      const { count, latest } = await outboxEmail(ctx, application.id, "interview_cancelled");
      expect(count).toBe(1);
      expect(latest?.attachment_content).toContain("METHOD:CANCEL");
    }
    const cancelledA = await expectJson<Interview>(
      await call(ctx, admin, "GET", `${PATH}${a.slot.id}/`),
    );
    expect(cancelledA.cancelReason).toBe("The application is offered");
    const reuse = await post(admin, PATH, {
      ...slotBody(ctx, [reviewer2], 910),
      startsAt: b.slot.startsAt,
    });
    expect(reuse.status).toBe(201);
    const filtered = await expectJson<Paged<ApplicationJson>>(
      await call(ctx, admin, "GET", "/api/v1/applications/?status=interviewing"),
    );
    expect(filtered.results.every((x) => x.status === "interviewing")).toBe(true);
  });
});

describe("erasure", () => {
  test("the applicant's notes, the calendar files and the panel's comments go with their data", async () => {
    const { slot, applicant, application } = await invited(ctx, admin, [reviewer], intake.id, 1000);
    await expectJson(
      await post(applicant, `${PATH}${slot.id}/reschedule-request/`, { note: "My surgery" }),
    );
    const asked = await requestErasure(ctx, applicant, PASSWORD);
    const request = await expectJson<RequestJson>(asked, 201);
    await expectJson(await post(admin, `/api/v1/data-rights/requests/${request.id}/approve/`));
    const after = await expectJson<Interview>(await call(ctx, admin, "GET", `${PATH}${slot.id}/`));
    expect(after).toMatchObject({ status: "cancelled", applicantNote: null });
    expect(after.cancelReason).toBe("[erased]");
    const rows = (await ctx.db.run(
      (sql) => sql`SELECT to_address, body, attachment_content FROM email_outbox
        WHERE application_id = ${application.id}`,
    )) as { to_address: string; body: string; attachment_content: string | null }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.attachment_content).toBeNull();
      expect(row.to_address).not.toBe(applicant.user.email);
      expect(row.body).not.toContain("Test applicant");
    }
  });
});
