import { describe, expect, test } from "bun:test";
import type { OfficeQueuePage } from "../src/modules/staff/model.ts";
import { draftWithFee, newPayment } from "./payments-support.ts";
import { assignedApplication, poolProgram, scored } from "./review-support.ts";
import { setupApp, signIn } from "./support.ts";
import { call, expectJson, submittedApplication } from "./workflow-support.ts";

/*
 * The office's queue (GET /staff/applications/): the list's filters plus payment state, score
 * range and flags; sorting; the counts per status; the CSV of the same filtered set.
 */
const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const [rita, sam] = [await signIn(ctx, "reviewer"), await signIn(ctx, "reviewer")];
if (!rita || !sam) throw new Error("reviewers");

const { program, intake } = await poolProgram(ctx, admin, [rita, sam]);
// Three applications under review with scores 2, 4 and (4 + 5)/2, and one unassigned.
const low = await assignedApplication(ctx, admin, intake.id, [rita]);
await scored(ctx, rita, low.id, 2);
const high = await assignedApplication(ctx, admin, intake.id, [rita]);
await scored(ctx, rita, high.id, 4);
const pair = await assignedApplication(ctx, admin, intake.id, [rita, sam]);
await scored(ctx, rita, pair.id, 4);
await scored(ctx, sam, pair.id, 5);
const waiting = (await submittedApplication(ctx, intake.id)).application;

const queue = async (query: string) =>
  expectJson<OfficeQueuePage>(
    await call(ctx, admin, "GET", `/api/v1/staff/applications/?programId=${program.id}&${query}`),
  );
const ids = (page: OfficeQueuePage) => page.results.map((row) => row.application.id);

describe("the office's queue", () => {
  test("each row: its score, counted reviews, reviewers, payment state and flags", async () => {
    const page = await queue("ordering=submittedAt");
    expect(ids(page)).toEqual([low.id, high.id, pair.id, waiting.id]);
    const [first, , third, fourth] = page.results;
    expect(first).toMatchObject({
      score: 2,
      reviews: 1,
      assignees: [{ id: rita.user.id, fullName: "Test reviewer", reviewed: true }],
      payment: { state: "not_required", pendingReference: null },
      flags: [],
    });
    expect(third).toMatchObject({ score: 4.5, reviews: 2 });
    expect(fourth).toMatchObject({ score: null, reviews: 0, flags: ["unassigned", "unscored"] });
  });

  test("score range, flags, and sorting by score with the unscored last either way", async () => {
    expect(ids(await queue("scoreMin=3.5"))).toEqual([high.id, pair.id]);
    expect(ids(await queue("scoreMin=2&scoreMax=4"))).toEqual([low.id, high.id]);
    expect(ids(await queue("flag=unassigned"))).toEqual([waiting.id]);
    expect(ids(await queue("flag=unscored"))).toEqual([waiting.id]);
    expect(ids(await queue("ordering=-score"))).toEqual([pair.id, high.id, low.id, waiting.id]);
    expect(ids(await queue("ordering=score"))).toEqual([low.id, high.id, pair.id, waiting.id]);
  });

  test("a conflict of interest takes the reviewer's score out and flags the application", async () => {
    const res = await call(
      ctx,
      sam,
      "POST",
      `/api/v1/applications/${pair.id}/conflict-of-interest/`,
      {
        reason: "A former student of mine",
      },
    );
    expect(res.status).toBe(200);
    const page = await queue("flag=conflict");
    expect(ids(page)).toEqual([pair.id]);
    expect(page.results[0]).toMatchObject({ score: 4, reviews: 1 });
    expect(page.results[0]?.assignees.map((a) => a.id)).toEqual([rita.user.id]);
  });

  test("counts per status ignore the status filter; the count follows every filter", async () => {
    const page = await queue("status=submitted");
    expect(ids(page)).toEqual([waiting.id]);
    expect(page.count).toBe(1);
    expect(page.countsByStatus).toEqual({ submitted: 1, under_review: 3 });
    const scanned = await queue("status=under_review&scoreMin=3");
    expect(scanned.count).toBe(2);
    expect(scanned.countsByStatus).toEqual({ under_review: 2 });
  });

  test("payment state: a transfer awaiting confirmation is pending with its reference, then paid", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin, 4_000);
    const payment = await newPayment(ctx, applicant, draft.id, { provider: "manual" });
    const of = async (state: string) =>
      expectJson<OfficeQueuePage>(
        await call(
          ctx,
          admin,
          "GET",
          `/api/v1/staff/applications/?intakeId=${draft.intake.id}&paymentState=${state}`,
        ),
      );
    const pending = await of("pending");
    expect(pending.results.map((r) => r.payment)).toEqual([
      { state: "pending", pendingReference: payment.reference },
    ]);
    expect((await of("paid")).count).toBe(0);
    await expectJson(await call(ctx, admin, "POST", `/api/v1/payments/${payment.id}/confirm/`, {}));
    expect(ids(await of("paid"))).toEqual([draft.id]);
    expect((await of("unpaid")).count).toBe(0);
  });

  test("sorting by deadline and by applicant; paging keeps the order", async () => {
    const later = await poolProgram(ctx, admin, [rita]);
    const other = (await submittedApplication(ctx, later.intake.id)).application;
    const all = await expectJson<OfficeQueuePage>(
      await call(ctx, admin, "GET", "/api/v1/staff/applications/?ordering=-deadline&limit=100"),
    );
    const deadlines = all.results.map((r) => r.application.intake.deadline);
    expect([...deadlines].sort().reverse()).toEqual(deadlines);
    expect(ids(all)).toContain(other.id);
    const pageOne = await queue("ordering=-score&limit=2");
    const pageTwo = await queue("ordering=-score&limit=2&offset=2");
    expect([...ids(pageOne), ...ids(pageTwo)]).toEqual(ids(await queue("ordering=-score")));
    expect(pageOne.next).toContain("offset=2");
  });

  test("admins only; bad filters are 422", async () => {
    for (const who of [rita, (await submittedApplication(ctx, intake.id)).applicant]) {
      expect((await call(ctx, who, "GET", "/api/v1/staff/applications/")).status).toBe(403);
    }
    for (const query of ["flag=shiny", "paymentState=owed", "scoreMin=x", "ordering=score;"]) {
      const res = await call(ctx, admin, "GET", `/api/v1/staff/applications/?${query}`);
      expect(res.status).toBe(422);
    }
  });
});

describe("the CSV of the filtered set", () => {
  test("the office's filters apply, with each row's score and payment state", async () => {
    const res = await call(
      ctx,
      admin,
      "GET",
      `/api/v1/staff/applications/export/?programId=${program.id}&scoreMin=3.5&status=under_review`,
    );
    expect(res.status).toBe(200);
    const lines = (await res.text()).split("\r\n").filter(Boolean);
    expect(lines[0]).toEndWith('"waitlist_position","score","payment_state"');
    // The pair's score is 4 since its second reviewer's conflict (above).
    expect(lines.slice(1).map((line) => line.slice(1, 37))).toEqual([high.id, pair.id]);
    for (const line of lines.slice(1)) expect(line).toEndWith('"4.00","not_required"');
  });
});
