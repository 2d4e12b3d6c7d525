import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import type { ApplicationReviews, ExtraReviews } from "../src/modules/review/model.ts";
import { assignedApplication, poolProgram, scored } from "./review-support.ts";
import { type Paged, type Session, setupApp, signIn } from "./support.ts";
import { call, expectJson } from "./workflow-support.ts";

// The configured default: totals more than 1.5 points apart ask for an extra review.
const ctx = await setupApp({ reviewDisagreementThreshold: 1.5 });
const admin = await signIn(ctx, "admin");
const reviewers = async (n: number) =>
  Promise.all(Array.from({ length: n }, () => signIn(ctx, "reviewer")));

const reviewsOf = async (applicationId: string) =>
  expectJson<ApplicationReviews>(
    await call(ctx, admin, "GET", `/api/v1/applications/${applicationId}/reviews/`),
  );
const assignedIds = async (applicationId: string) =>
  (await reviewsOf(applicationId)).assignments.map((a) => a.reviewer.id).sort();
const extraReviews = async (query = "") =>
  (
    await expectJson<ExtraReviews>(
      await call(ctx, admin, "GET", `/api/v1/staff/calibration/extra-reviews/${query}`),
    )
  ).items;
const extraFor = async (applicationId: string) =>
  (await extraReviews()).filter((x) => x.applicationId === applicationId);

type AuditJson = { action: string; applicationId: string | null; subject: { id: string } | null };
async function auditOf(applicationId: string, action: string) {
  const page = await expectJson<Paged<AuditJson>>(
    await call(ctx, admin, "GET", `/api/v1/staff/audit/?action=${action}&limit=100`),
  );
  return page.results.filter((entry) => entry.applicationId === applicationId);
}
async function emailsTo(reviewer: Session) {
  return (await ctx.db.run(
    (sql) => sql`SELECT subject FROM email_outbox
      WHERE to_address = ${reviewer.user.email} AND event = 'reviewer_assigned'`,
  )) as { subject: string }[];
}
const setThreshold = async (programId: string, threshold: number | null) =>
  expectJson(
    await call(ctx, admin, "PUT", `/api/v1/staff/programs/${programId}/review-settings/`, {
      blindReview: false,
      disagreementThreshold: threshold,
    }),
  );

describe("an extra review when two totals disagree", () => {
  test("goes to the least loaded eligible reviewer, is audited and emailed", async () => {
    const [r1, r2, busy, free] = (await reviewers(4)) as [Session, Session, Session, Session];
    const { intake } = await poolProgram(ctx, admin, [r1, r2, busy, free]);
    // `busy` already has an open assignment; `free` has none.
    await assignedApplication(ctx, admin, intake.id, [busy]);
    const application = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await scored(ctx, r1, application.id, 5);
    expect(await assignedIds(application.id)).toEqual([r1.user.id, r2.user.id].sort());
    expect((await reviewsOf(application.id)).extraReview).toBeNull();
    await scored(ctx, r2, application.id, 3);
    expect(await assignedIds(application.id)).toEqual(
      [r1.user.id, r2.user.id, free.user.id].sort(),
    );
    const [extra] = await extraFor(application.id);
    // The application's reviews say the same, to admins and to its reviewers alike.
    expect((await reviewsOf(application.id)).extraReview).toEqual(extra ?? null);
    const seenByReviewer = await expectJson<ApplicationReviews>(
      await call(ctx, r1, "GET", `/api/v1/applications/${application.id}/reviews/`),
    );
    expect(seenByReviewer.extraReview?.reviewerId).toBe(free.user.id);
    expect(extra).toMatchObject({
      reviewerId: free.user.id,
      lowTotal: 3,
      highTotal: 5,
      threshold: 1.5,
    });
    expect(extra?.resolvedAt).not.toBeNull();
    const audit = await auditOf(application.id, "review.extra_requested");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.subject?.id).toBe(free.user.id);
    expect(await emailsTo(free)).toHaveLength(1);
    // The extra reviewer finds it in their queue and reviews it like any other.
    const queue = await expectJson<Paged<{ application: { id: string } }>>(
      await call(ctx, free, "GET", "/api/v1/staff/queue/"),
    );
    expect(queue.results.map((q) => q.application.id)).toContain(application.id);
    await scored(ctx, free, application.id, 4);
  });

  test("once per application: later saves that still disagree ask for no more", async () => {
    const [r1, r2, r3, r4] = (await reviewers(4)) as [Session, Session, Session, Session];
    const { intake } = await poolProgram(ctx, admin, [r1, r2, r3, r4]);
    const application = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await scored(ctx, r1, application.id, 5);
    await scored(ctx, r2, application.id, 1);
    const afterFirst = await assignedIds(application.id);
    expect(afterFirst).toHaveLength(3);
    await scored(ctx, r2, application.id, 2); // revised, still 3 apart
    await scored(ctx, r1, application.id, 5);
    const extra = afterFirst.find((id) => id !== r1.user.id && id !== r2.user.id);
    const third = [r3, r4].find((r) => r.user.id === extra) as Session;
    await scored(ctx, third, application.id, 1);
    expect(await assignedIds(application.id)).toEqual(afterFirst);
    expect(await extraFor(application.id)).toHaveLength(1);
    expect(await auditOf(application.id, "review.extra_requested")).toHaveLength(1);
  });

  test("two disagreeing reviews saved at once ask for one extra review", async () => {
    const [r1, r2, r3, r4, r5] = (await reviewers(5)) as Session[] as [
      Session,
      Session,
      Session,
      Session,
      Session,
    ];
    const { intake } = await poolProgram(ctx, admin, [r1, r2, r3, r4, r5]);
    const application = await assignedApplication(ctx, admin, intake.id, [r1, r2, r3]);
    await scored(ctx, r1, application.id, 5);
    await Promise.all([scored(ctx, r2, application.id, 1), scored(ctx, r3, application.id, 1)]);
    expect(await assignedIds(application.id)).toHaveLength(4);
    expect(await extraFor(application.id)).toHaveLength(1);
    expect(await auditOf(application.id, "review.extra_requested")).toHaveLength(1);
  });

  test("within the threshold, or exactly at it, nothing happens", async () => {
    const [r1, r2, r3] = (await reviewers(3)) as [Session, Session, Session];
    const { intake, program } = await poolProgram(ctx, admin, [r1, r2, r3]);
    const close = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await scored(ctx, r1, close.id, 4);
    await scored(ctx, r2, close.id, 3);
    expect(await assignedIds(close.id)).toHaveLength(2);
    await setThreshold(program.id, 2);
    const atIt = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await scored(ctx, r1, atIt.id, 5);
    await scored(ctx, r2, atIt.id, 3);
    expect(await assignedIds(atIt.id)).toHaveLength(2);
    expect(await extraFor(close.id)).toEqual([]);
    expect(await extraFor(atIt.id)).toEqual([]);
  });

  test("a program's own threshold overrides the configured one, both ways", async () => {
    const [r1, r2, r3] = (await reviewers(3)) as [Session, Session, Session];
    const { intake, program } = await poolProgram(ctx, admin, [r1, r2, r3]);
    await setThreshold(program.id, 0.5);
    const application = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await scored(ctx, r1, application.id, 4);
    await scored(ctx, r2, application.id, 3); // 1 apart: under 1.5, over 0.5
    expect(await assignedIds(application.id)).toContain(r3.user.id);
    expect((await extraFor(application.id))[0]?.threshold).toBe(0.5);
  });

  test("a single review, or one left out for a conflict, is no disagreement", async () => {
    const [r1, r2, r3] = (await reviewers(3)) as [Session, Session, Session];
    const { intake } = await poolProgram(ctx, admin, [r1, r2, r3]);
    const application = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await scored(ctx, r1, application.id, 5);
    expect(await assignedIds(application.id)).toHaveLength(2);
    // r1 declares a conflict: their 5 no longer counts, so r2's 1 stands alone.
    await expectJson(
      await call(ctx, r1, "POST", `/api/v1/applications/${application.id}/conflict-of-interest/`, {
        reason: "Former student",
      }),
    );
    await scored(ctx, r2, application.id, 1);
    expect(await assignedIds(application.id)).toEqual([r2.user.id]);
    expect(await extraFor(application.id)).toEqual([]);
  });
});

describe("with nobody eligible, the application is flagged for admins", () => {
  test("conflicted, inactive and already-assigned reviewers are skipped; an admin resolves it", async () => {
    const [r1, r2, conflicted, inactive, later] = (await reviewers(5)) as Session[] as [
      Session,
      Session,
      Session,
      Session,
      Session,
    ];
    const { intake, program } = await poolProgram(ctx, admin, [r1, r2, conflicted, inactive]);
    const application = await assignedApplication(ctx, admin, intake.id, [r1, r2]);
    await expectJson(
      await call(
        ctx,
        conflicted,
        "POST",
        `/api/v1/applications/${application.id}/conflict-of-interest/`,
        { reason: "Family friend" },
      ),
    );
    await expectJson(
      await call(ctx, admin, "PATCH", `/api/v1/staff/users/${inactive.user.id}/`, {
        active: false,
      }),
    );
    await scored(ctx, r1, application.id, 5);
    await scored(ctx, r2, application.id, 1);
    expect(await assignedIds(application.id)).toEqual([r1.user.id, r2.user.id].sort());
    const flagged = await extraReviews("?flagged=true");
    const mine = flagged.find((x) => x.applicationId === application.id);
    expect(mine).toMatchObject({ reviewerId: null, resolvedAt: null, programId: program.id });
    expect((await reviewsOf(application.id)).extraReview).toMatchObject({
      reviewerId: null,
      resolvedAt: null,
      lowTotal: 1,
      highTotal: 5,
      threshold: 1.5,
    });
    expect(await auditOf(application.id, "review.extra_flagged")).toHaveLength(1);
    expect(await auditOf(application.id, "review.extra_requested")).toEqual([]);
    // The program filter finds it; another program's does not.
    const byProgram = await extraReviews(`?programId=${program.id}&flagged=true`);
    expect(byProgram.map((x) => x.applicationId)).toEqual([application.id]);
    expect(await extraReviews(`?programId=${crypto.randomUUID()}`)).toEqual([]);
    // Saving again does not flag twice.
    await scored(ctx, r2, application.id, 2);
    expect(await auditOf(application.id, "review.extra_flagged")).toHaveLength(1);
    // An admin adds a reviewer to the pool and assigns them: the flag is resolved.
    await expectJson(
      await call(ctx, admin, "PUT", `/api/v1/staff/programs/${program.id}/reviewers/`, {
        reviewerIds: [r1, r2, conflicted, later].map((r) => r.user.id),
      }),
    );
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/applications/${application.id}/assignments/`, {
        reviewerId: later.user.id,
      }),
      201,
    );
    const [resolved] = await extraFor(application.id);
    expect(resolved?.reviewerId).toBe(later.user.id);
    expect(resolved?.resolvedAt).not.toBeNull();
    expect((await reviewsOf(application.id)).extraReview).toEqual(resolved ?? null);
    expect(
      (await extraReviews("?flagged=true")).some((x) => x.applicationId === application.id),
    ).toBe(false);
  });
});

describe("the extra-review list", () => {
  test("is for admins only; bad filters are 422", async () => {
    const [reviewer] = (await reviewers(1)) as [Session];
    const applicant = await signIn(ctx);
    for (const who of [reviewer, applicant]) {
      const res = await call(ctx, who, "GET", "/api/v1/staff/calibration/extra-reviews/");
      expect((await problemOf(res)).code).toBe("FORBIDDEN");
    }
    const bad = await call(
      ctx,
      admin,
      "GET",
      "/api/v1/staff/calibration/extra-reviews/?flagged=maybe",
    );
    expect(bad.status).toBe(422);
  });
});
