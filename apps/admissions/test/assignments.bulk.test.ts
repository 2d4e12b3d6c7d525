import { describe, expect, test } from "bun:test";
import type { Refusal } from "../src/modules/staff/model.ts";
import { poolProgram } from "./review-support.ts";
import { setupApp, signIn } from "./support.ts";
import { call, expectJson, problemWith, submittedApplication } from "./workflow-support.ts";

/*
 * Assigning many applications at once (POST /staff/assignments/bulk/), all or
 * none, and each reviewer's workload (GET /staff/reviewers/workload/).
 */
const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const rita = await signIn(ctx, "reviewer");
const sam = await signIn(ctx, "reviewer");
const outsider = await signIn(ctx, "reviewer");
const { program, intake } = await poolProgram(ctx, admin, [rita, sam]);

const bulk = (body: unknown, who = admin) =>
  call(ctx, who, "POST", "/api/v1/staff/assignments/bulk/", body);
const statusOf = async (id: string) =>
  (
    await expectJson<{ status: string }>(
      await call(ctx, admin, "GET", `/api/v1/applications/${id}/`),
    )
  ).status;
const reviewersOf = async (id: string) =>
  (
    await expectJson<{ assignments: { reviewer: { id: string } }[] }>(
      await call(ctx, admin, "GET", `/api/v1/applications/${id}/reviews/`),
    )
  ).assignments.map((a) => a.reviewer.id);
const workload = async (query = "") =>
  (
    await expectJson<{ results: { reviewer: { id: string }; open: number; reviewed: number }[] }>(
      await call(ctx, admin, "GET", `/api/v1/staff/reviewers/workload/${query}`),
    )
  ).results;
const fresh = async () => (await submittedApplication(ctx, intake.id)).application;

describe("bulk assignment", () => {
  test("one reviewer for several: each assigned and under review, one batch in the audit log", async () => {
    const [a, b] = [await fresh(), await fresh()];
    const done = await expectJson<{ batchId: string; assigned: number }>(
      await bulk({ applicationIds: [a.id, b.id], reviewerId: rita.user.id }),
    );
    expect(done.assigned).toBe(2);
    for (const { id } of [a, b]) {
      expect(await statusOf(id)).toBe("under_review");
      expect(await reviewersOf(id)).toEqual([rita.user.id]);
    }
    const audit = await expectJson<{ results: { details: { batchId?: string } }[] }>(
      await call(ctx, admin, "GET", "/api/v1/staff/audit/?action=application.reviewer_assigned"),
    );
    expect(audit.results.filter((e) => e.details.batchId === done.batchId)).toHaveLength(2);
  });

  test("all or none: one refusal (a declared conflict) and nothing is assigned; each refusal says why", async () => {
    const [a, b] = [await fresh(), await fresh()];
    expect(
      (
        await call(ctx, sam, "POST", `/api/v1/applications/${b.id}/conflict-of-interest/`, {
          reason: "My neighbour",
        })
      ).status,
    ).toBe(200);
    const res = await bulk({ applicationIds: [a.id, b.id], reviewerId: sam.user.id });
    expect(res.status).toBe(409);
    const problem = await problemWith(res);
    expect(problem.code).toBe("BULK_REFUSED");
    expect((problem.refusals as Refusal[]).map((r) => [r.applicationId, r.code])).toEqual([
      [b.id, "REVIEWER_CONFLICTED"],
    ]);
    expect(await reviewersOf(a.id)).toEqual([]);
    expect(await statusOf(a.id)).toBe("submitted");
    // Someone outside the programme's pool: refused for each.
    const outside = await problemWith(
      await bulk({ applicationIds: [a.id], reviewerId: outsider.user.id }),
    );
    expect((outside.refusals as Refusal[]).map((r) => r.code)).toEqual(["REVIEWER_NOT_IN_POOL"]);
  });

  test("without a reviewer: round-robin, application by application", async () => {
    const [a, b] = [await fresh(), await fresh()];
    await expectJson(await bulk({ applicationIds: [a.id, b.id] }));
    const chosen = [...(await reviewersOf(a.id)), ...(await reviewersOf(b.id))];
    expect(new Set(chosen)).toEqual(new Set([rita.user.id, sam.user.id]));
  });

  test("admins only; an empty or oversized list is 422", async () => {
    const a = await fresh();
    expect((await bulk({ applicationIds: [a.id] }, rita)).status).toBe(403);
    expect((await bulk({ applicationIds: [] })).status).toBe(422);
    const many = Array.from({ length: 201 }, () => crypto.randomUUID());
    expect((await bulk({ applicationIds: many })).status).toBe(422);
  });
});

describe("each reviewer's workload", () => {
  test("open assignments and reviews, the least loaded first; a programme's pool alone", async () => {
    const before = await workload(`?programId=${program.id}`);
    expect(before.map((row) => row.reviewer.id).sort()).toEqual([rita.user.id, sam.user.id].sort());
    const load = (rows: typeof before, id: string) => rows.find((r) => r.reviewer.id === id);
    const a = await fresh();
    await expectJson(await bulk({ applicationIds: [a.id], reviewerId: sam.user.id }));
    const after = await workload(`?programId=${program.id}`);
    expect(load(after, sam.user.id)?.open).toBe((load(before, sam.user.id)?.open ?? 0) + 1);
    const opens = after.map((row) => row.open);
    expect([...opens].sort((x, y) => x - y)).toEqual(opens);
    await expectJson(
      await call(ctx, sam, "PUT", `/api/v1/applications/${a.id}/reviews/mine/`, {
        scores: { overall: 3 },
        recommendation: "discuss",
      }),
    );
    const reviewed = await workload(`?programId=${program.id}`);
    expect(load(reviewed, sam.user.id)?.reviewed).toBe(
      (load(after, sam.user.id)?.reviewed ?? 0) + 1,
    );
    // Everyone active, without a programme: the outsider too, with nothing on their desk.
    expect(load(await workload(), outsider.user.id)).toMatchObject({ open: 0, reviewed: 0 });
    expect((await call(ctx, rita, "GET", "/api/v1/staff/reviewers/workload/")).status).toBe(403);
  });
});
