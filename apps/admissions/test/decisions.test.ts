import { describe, expect, test } from "bun:test";
import { expireDueOffers } from "../src/modules/offers/service.ts";
import { runJobsOnce } from "../src/wiring.ts";
import { type ApplicationJson, move, type Paged, setupApp, signIn } from "./support.ts";
import {
  applicationUnderReview,
  call,
  DAY,
  decide,
  expectJson,
  intakeWithSeats,
  problemWith,
  recordingMailer,
  submittedApplication,
  testJobs,
} from "./workflow-support.ts";

const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const secondAdmin = await signIn(ctx, "admin");
const reviewer = await signIn(ctx, "reviewer");

type Offered = ApplicationJson & {
  offer: { respondBy: string; conditions: string[] } | null;
  waitlistPosition: number | null;
};
const reviewed = async (intakeId: string) => applicationUnderReview(ctx, reviewer, intakeId);
const seatsOf = async (intakeId: string) =>
  expectJson<{
    capacity: number;
    held: number;
    taken: number;
    available: number;
    waitlisted: number;
  }>(await call(ctx, reviewer, "GET", `/api/v1/staff/intakes/${intakeId}/seats/`));
const MINUTE = 60_000;
/** Access tokens live 15 minutes of the test clock: time travel stays short and is undone. */
async function later<T>(work: () => Promise<T>): Promise<T> {
  const start = ctx.clock.now();
  try {
    return await work();
  } finally {
    ctx.clock.set(start);
  }
}
const answer = (who: Parameters<typeof call>[1], id: string, what: "accept" | "decline") =>
  call(ctx, who, "POST", `/api/v1/applications/${id}/${what}/`);

describe("decisions are admins'", () => {
  test("an offer carries the default deadline and no conditions; reviewers cannot decide", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await reviewed(intake.id);
    const byReviewer = await decide(ctx, reviewer, application.id, { decision: "offer" });
    expect((await problemWith(byReviewer)).code).toBe("FORBIDDEN");
    const viaTable = await move(ctx, reviewer, application.id, "offered");
    expect((await problemWith(viaTable)).code).toBe("TRANSITION_FORBIDDEN");
    const res = await decide(ctx, admin, application.id, { decision: "offer", reason: "Strong" });
    const offered = await expectJson<Offered>(res);
    expect(res.headers.get("etag")).toBe(`"${offered.version}"`);
    expect(offered.status).toBe("offered");
    expect(offered.offer).toEqual({
      respondBy: new Date(ctx.clock.now() + 14 * DAY).toISOString(),
      conditions: [],
    });
  });

  test("a conditional offer lists its conditions; decision fields elsewhere are 422", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await reviewed(intake.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ decision: "conditional_offer" }, "/body/conditions"],
      [{ decision: "offer", conditions: ["Grade B"] }, "/body/conditions"],
      [{ decision: "offer", waitlistPosition: 2 }, "/body/waitlistPosition"],
      [
        { decision: "reject", respondBy: new Date(ctx.clock.now() + DAY).toISOString() },
        "/body/respondBy",
      ],
      [
        { decision: "offer", respondBy: new Date(ctx.clock.now() - 1).toISOString() },
        "/body/respondBy",
      ],
      [
        { decision: "offer", respondBy: new Date(ctx.clock.now() + 400 * DAY).toISOString() },
        "/body/respondBy",
      ],
      [{ decision: "maybe" }, "/body/decision"],
    ];
    for (const [body, path] of cases) {
      const problem = await problemWith(await decide(ctx, admin, application.id, body));
      expect(problem.status).toBe(422);
      expect(JSON.stringify(problem.errors)).toContain(path);
    }
    const respondBy = new Date(ctx.clock.now() + 30 * DAY).toISOString();
    const offered = await expectJson<Offered>(
      await decide(ctx, admin, application.id, {
        decision: "conditional_offer",
        conditions: ["  Final grade B in Mathematics ", "Proof of English (IELTS 6.5)"],
        respondBy,
      }),
    );
    expect(offered.status).toBe("conditionally_offered");
    expect(offered.offer).toEqual({
      respondBy,
      conditions: ["Final grade B in Mathematics", "Proof of English (IELTS 6.5)"],
    });
  });

  test("only from the statuses the table allows: 409 ILLEGAL_TRANSITION otherwise", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await submittedApplication(ctx, intake.id);
    const problem = await problemWith(
      await decide(ctx, admin, application.id, { decision: "offer" }),
    );
    expect(problem.code).toBe("ILLEGAL_TRANSITION");
    await move(ctx, reviewer, application.id, "under_review");
    await expectJson(await decide(ctx, admin, application.id, { decision: "reject" }));
    const again = await decide(ctx, admin, application.id, { decision: "waitlist" });
    expect((await problemWith(again)).code).toBe("ILLEGAL_TRANSITION");
  });
});

describe("the applicant answers", () => {
  test("accepts before the deadline; nobody else can answer for them", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await reviewed(intake.id);
    await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
    const stranger = await signIn(ctx);
    expect((await answer(stranger, application.id, "accept")).status).toBe(404);
    expect((await problemWith(await answer(admin, application.id, "accept"))).code).toBe(
      "TRANSITION_FORBIDDEN",
    );
    const accepted = await expectJson<Offered>(await answer(applicant, application.id, "accept"));
    expect(accepted.status).toBe("accepted");
    expect((await seatsOf(intake.id)).taken).toBe(1);
    const enrolled = await move(ctx, admin, application.id, "enrolled");
    expect(((await enrolled.json()) as Offered).status).toBe("enrolled");
  });

  test("past the deadline the offer cannot be accepted: 409 OFFER_EXPIRED", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await reviewed(intake.id);
    const respondBy = new Date(ctx.clock.now() + MINUTE).toISOString();
    await expectJson(await decide(ctx, admin, application.id, { decision: "offer", respondBy }));
    await later(async () => {
      ctx.clock.advance(MINUTE);
      const problem = await problemWith(await answer(applicant, application.id, "accept"));
      expect(problem.code).toBe("OFFER_EXPIRED");
      expect(problem.respondBy).toBe(respondBy);
    });
  });

  test("a conditional offer is accepted with its conditions still to be met", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await reviewed(intake.id);
    await expectJson(
      await decide(ctx, admin, application.id, {
        decision: "conditional_offer",
        conditions: ["B"],
      }),
    );
    const accepted = await expectJson<Offered>(await answer(applicant, application.id, "accept"));
    expect(accepted).toMatchObject({ status: "accepted", offer: { conditions: ["B"] } });
    const outcome = await move(ctx, admin, application.id, "conditions_not_met");
    expect(((await outcome.json()) as Offered).status).toBe("conditions_not_met");
    expect((await seatsOf(intake.id)).held).toBe(0);
  });
});

describe("capacity and the waitlist", () => {
  test("offers stop at the capacity; the waitlist keeps its order; a decline frees a seat for the first in line", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 2);
    const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => reviewed(intake.id)));
    if (!a || !b || !c || !d || !e) throw new Error("applications missing");
    await expectJson(await decide(ctx, admin, a.application.id, { decision: "offer" }));
    await expectJson(await decide(ctx, admin, b.application.id, { decision: "offer" }));
    const full = await problemWith(
      await decide(ctx, admin, c.application.id, { decision: "offer" }),
    );
    expect(full.code).toBe("NO_SEATS_AVAILABLE");
    expect(full.seats).toMatchObject({ capacity: 2, held: 2, available: 0 });

    await expectJson(await decide(ctx, admin, c.application.id, { decision: "waitlist" }));
    await expectJson(await decide(ctx, admin, d.application.id, { decision: "waitlist" }));
    const jumped = await expectJson<Offered>(
      await decide(ctx, admin, e.application.id, { decision: "waitlist", waitlistPosition: 1 }),
    );
    expect(jumped.waitlistPosition).toBe(1);
    const line = async () =>
      (
        await expectJson<Paged<Offered>>(
          await call(ctx, reviewer, "GET", `/api/v1/staff/intakes/${intake.id}/waitlist/`),
        )
      ).results.map((x) => [x.id, x.waitlistPosition]);
    expect(await line()).toEqual([
      [e.application.id, 1],
      [c.application.id, 2],
      [d.application.id, 3],
    ]);
    expect(await seatsOf(intake.id)).toMatchObject({ held: 2, available: 0, waitlisted: 3 });

    const noSeat = await call(
      ctx,
      admin,
      "POST",
      `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`,
    );
    expect((await problemWith(noSeat)).code).toBe("NO_SEATS_AVAILABLE");
    await expectJson(await answer(a.applicant, a.application.id, "decline"));
    expect((await seatsOf(intake.id)).available).toBe(1);
    const promoted = await expectJson<Offered>(
      await call(ctx, admin, "POST", `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`, {}),
    );
    expect(promoted).toMatchObject({
      id: e.application.id,
      status: "offered",
      waitlistPosition: null,
    });
    expect(await line()).toEqual([
      [c.application.id, 1],
      [d.application.id, 2],
    ]);
    // Leaving the waitlist any other way closes the gap too.
    await expectJson(
      await call(ctx, c.applicant, "POST", `/api/v1/applications/${c.application.id}/withdraw/`),
    );
    expect(await line()).toEqual([[d.application.id, 1]]);
    await expectJson(await decide(ctx, admin, d.application.id, { decision: "reject" }));
    const empty = await call(
      ctx,
      admin,
      "POST",
      `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`,
    );
    expect((await problemWith(empty)).code).toBe("WAITLIST_EMPTY");
  });

  test("no more places taken than seats, even when the capacity was lowered after the offers", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 2);
    const a = await reviewed(intake.id);
    const b = await reviewed(intake.id);
    await expectJson(await decide(ctx, admin, a.application.id, { decision: "offer" }));
    await expectJson(await decide(ctx, admin, b.application.id, { decision: "offer" }));
    await expectJson(
      await call(ctx, admin, "PATCH", `/api/v1/catalog/intakes/${intake.id}/`, { capacity: 1 }),
    );
    await expectJson(await answer(a.applicant, a.application.id, "accept"));
    const second = await problemWith(await answer(b.applicant, b.application.id, "accept"));
    expect(second.code).toBe("NO_SEATS_AVAILABLE");
    expect(await seatsOf(intake.id)).toMatchObject({ capacity: 1, taken: 1 });
  });

  test("capacity cannot go below the places already taken: 409 CAPACITY_BELOW_TAKEN", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 3);
    for (let i = 0; i < 2; i++) {
      const { applicant, application } = await reviewed(intake.id);
      await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
      await expectJson(await answer(applicant, application.id, "accept"));
    }
    const res = await call(ctx, admin, "PATCH", `/api/v1/catalog/intakes/${intake.id}/`, {
      capacity: 1,
    });
    const problem = await problemWith(res);
    expect(problem.code).toBe("CAPACITY_BELOW_TAKEN");
    expect(problem.taken).toBe(2);
  });
});

describe("under concurrency", () => {
  test("two admins offering the last seat at once: exactly one succeeds", async () => {
    for (let round = 0; round < 4; round++) {
      const { intake } = await intakeWithSeats(ctx, admin, 1);
      const a = await reviewed(intake.id);
      const b = await reviewed(intake.id);
      const results = await Promise.all([
        decide(ctx, admin, a.application.id, { decision: "offer" }),
        decide(ctx, secondAdmin, b.application.id, { decision: "offer" }),
      ]);
      const statuses = results.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = results.find((res) => res.status === 409);
      if (loser) expect((await problemWith(loser)).code).toBe("NO_SEATS_AVAILABLE");
      expect(await seatsOf(intake.id)).toMatchObject({ capacity: 1, held: 1, available: 0 });
    }
  });

  test("two promotions at once for one freed seat: one offer, the next in line keeps waiting", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 1);
    const holder = await reviewed(intake.id);
    await expectJson(await decide(ctx, admin, holder.application.id, { decision: "offer" }));
    const waiting = [await reviewed(intake.id), await reviewed(intake.id)];
    for (const w of waiting) {
      await expectJson(await decide(ctx, admin, w.application.id, { decision: "waitlist" }));
    }
    await expectJson(await answer(holder.applicant, holder.application.id, "decline"));
    const path = `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`;
    const results = await Promise.all([
      call(ctx, admin, "POST", path),
      call(ctx, secondAdmin, "POST", path),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(await seatsOf(intake.id)).toMatchObject({ held: 1, waitlisted: 1 });
  });
});

describe("an unanswered offer expires on its own", () => {
  test("the job expires it as the system, frees the seat, and a second pass does nothing", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 1);
    const { applicant, application } = await reviewed(intake.id);
    const respondBy = new Date(ctx.clock.now() + 2 * MINUTE).toISOString();
    await expectJson(await decide(ctx, admin, application.id, { decision: "offer", respondBy }));
    const { mailer } = recordingMailer();
    const jobs = testJobs(ctx, mailer);
    const statusNow = async () =>
      (
        await expectJson<Offered>(
          await call(ctx, applicant, "GET", `/api/v1/applications/${application.id}/`),
        )
      ).status;
    await later(async () => {
      ctx.clock.advance(MINUTE);
      await runJobsOnce(jobs);
      expect(await statusNow()).toBe("offered");
      ctx.clock.advance(MINUTE);
      expect(await expireDueOffers(jobs)).toBeGreaterThanOrEqual(1);
      expect(await statusNow()).toBe("offer_expired");
      expect(await expireDueOffers(jobs)).toBe(0);
    });
    expect((await seatsOf(intake.id)).available).toBe(1);
    const history = await expectJson<
      Paged<{ to: string; actor: { id: string | null; role: string } }>
    >(await call(ctx, applicant, "GET", `/api/v1/applications/${application.id}/history/`));
    expect(history.results.at(-1)).toMatchObject({
      to: "offer_expired",
      actor: { id: null, role: "system" },
    });
  });

  test("several replicas expiring at once move each offer once", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 5);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { application } = await reviewed(intake.id);
      const respondBy = new Date(ctx.clock.now() + MINUTE).toISOString();
      await expectJson(await decide(ctx, admin, application.id, { decision: "offer", respondBy }));
      ids.push(application.id);
    }
    const jobs = testJobs(ctx, recordingMailer().mailer);
    const counts = await later(() => {
      ctx.clock.advance(MINUTE);
      return Promise.all([expireDueOffers(jobs), expireDueOffers(jobs), expireDueOffers(jobs)]);
    });
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    for (const id of ids) {
      const history = await expectJson<Paged<{ to: string }>>(
        await call(ctx, admin, "GET", `/api/v1/applications/${id}/history/`),
      );
      expect(history.results.filter((t) => t.to === "offer_expired")).toHaveLength(1);
    }
  });
});
