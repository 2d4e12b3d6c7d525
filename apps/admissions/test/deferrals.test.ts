import { describe, expect, test } from "bun:test";
import type { Deferral } from "../src/modules/offers/model.ts";
import {
  type ApplicationJson,
  createIntake,
  createProgram,
  type Paged,
  type Session,
  signIn,
  suiteWithStaff,
} from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  problemWith,
} from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();

const path = (id: string) => `/api/v1/applications/${id}/deferrals/`;
const ask = (who: Session, id: string, body: Record<string, unknown>) =>
  call(ctx, who, "POST", path(id), body);
const decideDeferral = (
  who: Session,
  id: string,
  deferralId: string,
  what: "approve" | "refuse",
  body?: unknown,
) => call(ctx, who, "POST", `${path(id)}${deferralId}/${what}/`, body);
const seatsOf = async (intakeId: string) =>
  expectJson<{ held: number; taken: number }>(
    await call(ctx, admin, "GET", `/api/v1/staff/intakes/${intakeId}/seats/`),
  );

/** A program with this year's intake and a later one, and an accepted place in the first. */
async function acceptedPlace(laterCapacity = 10) {
  const program = await createProgram(ctx, admin);
  const now = await createIntake(ctx, admin, program.id, { closesInDays: 30 });
  const later = await createIntake(ctx, admin, program.id, {
    closesInDays: 400,
    capacity: laterCapacity,
  });
  const { applicant, application } = await applicationUnderReview(ctx, reviewer, now.id);
  await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
  await expectJson(
    await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/accept/`),
  );
  return { program, now, later, applicant, application };
}

describe("deferring an accepted place", () => {
  test("applicant asks, admin approves: the seat moves in one go, history, audit and email", async () => {
    const { now, later, applicant, application } = await acceptedPlace();
    const asked = await expectJson<Deferral>(
      await ask(applicant, application.id, { toIntakeId: later.id, reason: "Gap year" }),
      201,
    );
    expect(asked).toMatchObject({
      status: "requested",
      fromIntake: { id: now.id },
      toIntake: { id: later.id },
      reason: "Gap year",
    });
    expect(await seatsOf(now.id)).toMatchObject({ taken: 1 });
    const approved = await expectJson<Deferral>(
      await decideDeferral(admin, application.id, asked.id, "approve", { note: "Fine" }),
    );
    expect(approved).toMatchObject({ status: "approved", decisionNote: "Fine" });
    expect(await seatsOf(now.id)).toMatchObject({ taken: 0, held: 0 });
    expect(await seatsOf(later.id)).toMatchObject({ taken: 1, held: 1 });
    const moved = await expectJson<ApplicationJson>(
      await call(ctx, applicant, "GET", `/api/v1/applications/${application.id}/`),
    );
    expect(moved).toMatchObject({ status: "accepted", intake: { id: later.id } });
    const history = await expectJson<Paged<{ from: string; to: string; reason: string }>>(
      await call(ctx, applicant, "GET", `/api/v1/applications/${application.id}/history/`),
    );
    expect(history.results.at(-1)).toMatchObject({ from: "accepted", to: "accepted" });
    expect(history.results.at(-1)?.reason).toContain("Deferred from");
    const audit = await expectJson<Paged<{ action: string }>>(
      await call(ctx, admin, "GET", `/api/v1/staff/audit/?applicationId=${application.id}`),
    );
    expect(audit.results[0]?.action).toBe("deferral.approved");
    const outbox = await expectJson<Paged<{ event: string }>>(
      await call(ctx, admin, "GET", `/api/v1/staff/outbox/?applicationId=${application.id}`),
    );
    expect(outbox.results[0]?.event).toBe("deferral_approved");
    // Decided: no second approval, nor a refusal.
    for (const what of ["approve", "refuse"] as const) {
      const again = await decideDeferral(admin, application.id, asked.id, what);
      expect([again.status, (await problemWith(again)).code]).toEqual([409, "DEFERRAL_CLOSED"]);
    }
  });

  test("no seat in the later intake: 409 and nothing moves; refusal keeps the place", async () => {
    const { program, now, later, applicant, application } = await acceptedPlace(1);
    // Someone else holds the later intake's only seat.
    const rival = await applicationUnderReview(ctx, reviewer, later.id);
    await expectJson(await decide(ctx, admin, rival.application.id, { decision: "offer" }));
    const asked = await expectJson<Deferral>(
      await ask(admin, application.id, { toIntakeId: later.id }),
      201,
    );
    const full = await decideDeferral(admin, application.id, asked.id, "approve");
    expect([full.status, (await problemWith(full)).code]).toEqual([409, "NO_SEATS_AVAILABLE"]);
    expect(await seatsOf(now.id)).toMatchObject({ taken: 1 });
    const list = await expectJson<{ results: Deferral[] }>(
      await call(ctx, applicant, "GET", path(application.id)),
    );
    expect(list.results.map((d) => d.status)).toEqual(["requested"]);
    const refused = await expectJson<Deferral>(
      await decideDeferral(admin, application.id, asked.id, "refuse", { note: "Full" }),
    );
    expect(refused.status).toBe("refused");
    const still = await expectJson<ApplicationJson>(
      await call(ctx, applicant, "GET", `/api/v1/applications/${application.id}/`),
    );
    expect(still.intake.id).toBe(now.id);
    expect(program.id).toBe(still.program.id);
  });

  test("requests are refused for the wrong status, intake, a second one, or another applicant", async () => {
    const { program, now, later, applicant, application } = await acceptedPlace();
    const otherProgram = await createProgram(ctx, admin);
    const elsewhere = await createIntake(ctx, admin, otherProgram.id, { closesInDays: 500 });
    const earlier = await createIntake(ctx, admin, program.id, { closesInDays: 10 });
    for (const toIntakeId of [elsewhere.id, earlier.id, now.id, "no-such-intake"]) {
      const res = await ask(applicant, application.id, { toIntakeId });
      expect(res.status).toBe(422);
    }
    const stranger = await signIn(ctx);
    expect((await ask(stranger, application.id, { toIntakeId: later.id })).status).toBe(404);
    expect((await call(ctx, stranger, "GET", path(application.id))).status).toBe(404);
    expect((await ask(reviewer, application.id, { toIntakeId: later.id })).status).toBe(403);
    const first = await expectJson<Deferral>(
      await ask(applicant, application.id, { toIntakeId: later.id }),
      201,
    );
    const second = await ask(applicant, application.id, { toIntakeId: later.id });
    expect([second.status, (await problemWith(second)).code]).toEqual([409, "DEFERRAL_PENDING"]);
    // Only admins decide.
    for (const who of [applicant, reviewer]) {
      expect((await decideDeferral(who, application.id, first.id, "approve")).status).toBe(403);
    }
    // A deferral id under another application is a 404.
    const other = await acceptedPlace();
    expect((await decideDeferral(admin, other.application.id, first.id, "approve")).status).toBe(
      404,
    );
    // Not accepted: nothing to defer.
    const { application: reviewed } = await applicationUnderReview(ctx, reviewer, now.id);
    const res = await ask(admin, reviewed.id, { toIntakeId: later.id });
    expect([res.status, (await problemWith(res)).code]).toEqual([409, "DEFERRAL_NOT_ALLOWED"]);
  });

  test("an applicant who already applied to the later intake cannot defer into it", async () => {
    const { later, applicant, application } = await acceptedPlace();
    await expectJson(
      await call(ctx, applicant, "POST", "/api/v1/applications/", { intakeId: later.id }),
      201,
    );
    const res = await ask(applicant, application.id, { toIntakeId: later.id });
    expect([res.status, (await problemWith(res)).code]).toEqual([409, "DEFERRAL_CONFLICT"]);
  });

  test("two approvals into the same later intake at once both complete (locks in one order)", async () => {
    const program = await createProgram(ctx, admin);
    const a = await createIntake(ctx, admin, program.id, { closesInDays: 30 });
    const b = await createIntake(ctx, admin, program.id, { closesInDays: 60 });
    const c = await createIntake(ctx, admin, program.id, { closesInDays: 90 });
    const places = [];
    for (const [from, to] of [
      [a, c],
      [b, c],
    ] as const) {
      const { applicant, application } = await applicationUnderReview(ctx, reviewer, from.id);
      await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
      await expectJson(
        await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/accept/`),
      );
      const asked = await expectJson<Deferral>(
        await ask(applicant, application.id, { toIntakeId: to.id }),
        201,
      );
      places.push({ id: application.id, deferralId: asked.id });
    }
    const results = await Promise.all(
      places.map((p) => decideDeferral(admin, p.id, p.deferralId, "approve")),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await seatsOf(c.id)).toMatchObject({ taken: 2 });
  });
});
