import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import type { User } from "../src/modules/users/model.ts";
import {
  type ApplicationJson,
  logIn,
  PASSWORD,
  type Paged,
  type Session,
  setupApp,
  signIn,
  uniqueEmail,
} from "./support.ts";
import {
  call,
  decide,
  expectJson,
  intakeWithSeats,
  submittedApplication,
} from "./workflow-support.ts";

const ctx = await setupApp();
const admin = await signIn(ctx, "admin");

type UserJson = User;

/** A reviewer account made by an admin through the API, signed in. */
async function newReviewer(): Promise<Session> {
  const email = uniqueEmail("reviewer");
  await expectJson<UserJson>(
    await call(ctx, admin, "POST", "/api/v1/staff/users/", {
      email,
      fullName: "Rita Reviewer",
      password: PASSWORD,
      role: "reviewer",
    }),
    201,
  );
  return logIn(ctx, email);
}

const RUBRIC = {
  scale: { min: 1, max: 5 },
  criteria: [
    { key: "academic_record", label: "Academic record", weight: 3 },
    { key: "statement", label: "Personal statement", weight: 1 },
  ],
};

/** A program with a rubric, an intake, and a pool of reviewers. */
async function reviewedProgram(pool: Session[]) {
  const { program, intake } = await intakeWithSeats(ctx, admin);
  await expectJson(
    await call(ctx, admin, "PUT", `/api/v1/staff/programs/${program.id}/rubric/`, RUBRIC),
  );
  await expectJson(
    await call(ctx, admin, "PUT", `/api/v1/staff/programs/${program.id}/reviewers/`, {
      reviewerIds: pool.map((r) => r.user.id),
    }),
  );
  return { program, intake };
}

const assign = (id: string, body?: Record<string, unknown>) =>
  call(ctx, admin, "POST", `/api/v1/applications/${id}/assignments/`, body);
const score = (who: Session, id: string, body: Record<string, unknown>) =>
  call(ctx, who, "PUT", `/api/v1/applications/${id}/reviews/mine/`, body);
const GOOD = { scores: { academic_record: 4, statement: 2 }, recommendation: "offer" };

describe("staff accounts", () => {
  test("admins create reviewers, who sign in; reviewers and applicants cannot", async () => {
    const reviewer = await newReviewer();
    expect(reviewer.user.role).toBe("reviewer");
    const body = { email: uniqueEmail(), fullName: "X", password: PASSWORD, role: "admin" };
    const applicant = await signIn(ctx);
    for (const who of [reviewer, applicant]) {
      const res = await call(ctx, who, "POST", "/api/v1/staff/users/", body);
      expect((await problemOf(res)).code).toBe("FORBIDDEN");
    }
    const taken = await call(ctx, admin, "POST", "/api/v1/staff/users/", {
      ...body,
      email: reviewer.user.email.toUpperCase(),
    });
    expect((await problemOf(taken)).code).toBe("EMAIL_TAKEN");
    const applicantRole = await call(ctx, admin, "POST", "/api/v1/staff/users/", {
      ...body,
      role: "applicant",
    });
    expect(applicantRole.status).toBe(422);
    const list = await expectJson<Paged<UserJson>>(
      await call(ctx, admin, "GET", "/api/v1/staff/users/?role=reviewer&limit=100"),
    );
    expect(list.results.map((u) => u.id)).toContain(reviewer.user.id);
    expect(list.results.every((u) => u.role === "reviewer")).toBe(true);
  });

  test("a deactivated reviewer is refused at once; an admin cannot deactivate themselves", async () => {
    const reviewer = await newReviewer();
    const off = await expectJson<UserJson>(
      await call(ctx, admin, "PATCH", `/api/v1/staff/users/${reviewer.user.id}/`, {
        active: false,
      }),
    );
    expect(off.active).toBe(false);
    expect((await call(ctx, reviewer, "GET", "/api/v1/auth/me/")).status).toBe(401);
    const self = await call(ctx, admin, "PATCH", `/api/v1/staff/users/${admin.user.id}/`, {
      active: false,
    });
    expect((await problemOf(self)).code).toBe("CANNOT_CHANGE_OWN_ACCOUNT");
    const applicant = await signIn(ctx);
    const notStaff = await call(ctx, admin, "PATCH", `/api/v1/staff/users/${applicant.user.id}/`, {
      active: false,
    });
    expect(notStaff.status).toBe(404);
  });

  test("a program's pool takes active staff only, naming the bad entry", async () => {
    const { program } = await intakeWithSeats(ctx, admin);
    const applicant = await signIn(ctx);
    const reviewer = await newReviewer();
    const res = await call(ctx, admin, "PUT", `/api/v1/staff/programs/${program.id}/reviewers/`, {
      reviewerIds: [reviewer.user.id, applicant.user.id],
    });
    const problem = await problemOf(res);
    expect(problem.status).toBe(422);
    expect(JSON.stringify(problem.errors)).toContain("/body/reviewerIds/1");
    const byReviewer = await call(
      ctx,
      reviewer,
      "PUT",
      `/api/v1/staff/programs/${program.id}/reviewers/`,
      { reviewerIds: [] },
    );
    expect((await problemOf(byReviewer)).code).toBe("FORBIDDEN");
  });
});

describe("rubrics", () => {
  test("validated: scale, duplicate keys; fixed once an application is scored", async () => {
    const reviewer = await newReviewer();
    const { program, intake } = await reviewedProgram([reviewer]);
    const path = `/api/v1/staff/programs/${program.id}/rubric/`;
    const badScale = await call(ctx, admin, "PUT", path, { ...RUBRIC, scale: { min: 5, max: 5 } });
    expect(badScale.status).toBe(422);
    const duplicate = await call(ctx, admin, "PUT", path, {
      ...RUBRIC,
      criteria: [RUBRIC.criteria[0], RUBRIC.criteria[0]],
    });
    expect(JSON.stringify((await problemOf(duplicate)).errors)).toContain("/body/criteria/1/key");
    const read = await expectJson(await call(ctx, reviewer, "GET", path));
    expect(read).toMatchObject({ programId: program.id, ...RUBRIC });
    const { application } = await submittedApplication(ctx, intake.id);
    await expectJson(await assign(application.id, { reviewerId: reviewer.user.id }), 201);
    await expectJson(await score(reviewer, application.id, GOOD));
    expect((await problemOf(await call(ctx, admin, "PUT", path, RUBRIC))).code).toBe(
      "RUBRIC_IN_USE",
    );
  });
});

describe("assignment", () => {
  test("by hand: moves a submitted application to under_review; refuses strangers and repeats", async () => {
    const [inPool, outsider] = [await newReviewer(), await newReviewer()];
    const { intake } = await reviewedProgram([inPool]);
    const { application } = await submittedApplication(ctx, intake.id);
    const stranger = await assign(application.id, { reviewerId: outsider.user.id });
    expect((await problemOf(stranger)).code).toBe("REVIEWER_NOT_IN_POOL");
    const byReviewer = await call(
      ctx,
      inPool,
      "POST",
      `/api/v1/applications/${application.id}/assignments/`,
      { reviewerId: inPool.user.id },
    );
    expect((await problemOf(byReviewer)).code).toBe("FORBIDDEN");
    const done = await expectJson<{ reviewerId: string }>(
      await assign(application.id, { reviewerId: inPool.user.id }),
      201,
    );
    expect(done.reviewerId).toBe(inPool.user.id);
    const now = await expectJson<ApplicationJson>(
      await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/`),
    );
    expect(now.status).toBe("under_review");
    const again = await assign(application.id, { reviewerId: inPool.user.id });
    expect((await problemOf(again)).code).toBe("ALREADY_ASSIGNED");
    const none = await assign(application.id);
    expect((await problemOf(none)).code).toBe("NO_REVIEWER_AVAILABLE");
  });

  test("round-robin takes turns across the pool, skipping the inactive", async () => {
    const pool = [await newReviewer(), await newReviewer(), await newReviewer()];
    const { intake } = await reviewedProgram(pool);
    const last = pool[2] as Session;
    await call(ctx, admin, "PATCH", `/api/v1/staff/users/${last.user.id}/`, { active: false });
    const chosen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { application } = await submittedApplication(ctx, intake.id);
      ctx.clock.advance(1);
      chosen.push(
        (await expectJson<{ reviewerId: string }>(await assign(application.id), 201)).reviewerId,
      );
    }
    const active = pool.slice(0, 2).map((r) => r.user.id);
    expect(new Set(chosen)).toEqual(new Set(active));
    expect(chosen[0]).not.toBe(chosen[1]);
    expect(chosen[2]).toBe(chosen[0]);
    expect(chosen[3]).toBe(chosen[1]);
    expect(chosen).not.toContain(last.user.id);
  });

  test("decided applications take no reviewers: 409 ASSIGNMENT_CLOSED", async () => {
    const reviewer = await newReviewer();
    const { intake } = await reviewedProgram([reviewer]);
    const { application } = await submittedApplication(ctx, intake.id);
    await assign(application.id);
    await expectJson(await decide(ctx, admin, application.id, { decision: "reject" }));
    expect((await problemOf(await assign(application.id))).code).toBe("ASSIGNMENT_CLOSED");
  });
});

describe("reviews", () => {
  test("assigned reviewers score against the rubric; the application shows every review and the weighted total", async () => {
    const [r1, r2, r3] = [await newReviewer(), await newReviewer(), await newReviewer()];
    const { intake } = await reviewedProgram([r1, r2, r3]);
    const { application } = await submittedApplication(ctx, intake.id);
    expect((await problemOf(await score(r1, application.id, GOOD))).code).toBe("NOT_ASSIGNED");
    await assign(application.id, { reviewerId: r1.user.id });
    await assign(application.id, { reviewerId: r2.user.id });
    const invalid: [Record<string, number>, string][] = [
      [{ academic_record: 4 }, "/body/scores/statement"],
      [{ academic_record: 6, statement: 2 }, "/body/scores/academic_record"],
      [{ academic_record: 4, statement: 2, charm: 5 }, "/body/scores/charm"],
    ];
    for (const [scores, path] of invalid) {
      const problem = await problemOf(await score(r1, application.id, { ...GOOD, scores }));
      expect(problem.status).toBe(422);
      expect(JSON.stringify(problem.errors)).toContain(path);
    }
    // (4×3 + 2×1) / 4 = 3.5
    const first = await expectJson<{ weightedTotal: number }>(
      await score(r1, application.id, GOOD),
    );
    expect(first.weightedTotal).toBe(3.5);
    await expectJson(
      await score(r2, application.id, {
        scores: { academic_record: 2, statement: 5 },
        recommendation: "discuss",
        comment: "Mixed",
      }),
    );
    // Revising replaces the reviewer's review.
    await expectJson(
      await score(r1, application.id, { ...GOOD, scores: { academic_record: 5, statement: 5 } }),
    );
    const all = await expectJson<{
      reviews: { reviewer: { id: string }; weightedTotal: number; recommendation: string }[];
      weightedTotal: number;
      recommendations: Record<string, number>;
      assignments: { reviewed: boolean }[];
    }>(await call(ctx, r3, "GET", `/api/v1/applications/${application.id}/reviews/`));
    expect(all.reviews.map((r) => [r.reviewer.id, r.weightedTotal])).toEqual([
      [r1.user.id, 5],
      [r2.user.id, 2.75],
    ]);
    expect(all.weightedTotal).toBe(3.88);
    expect(all.recommendations).toEqual({ offer: 1, waitlist: 0, reject: 0, discuss: 1 });
    expect(all.assignments.map((a) => a.reviewed)).toEqual([true, true]);
    const applicant = await signIn(ctx);
    const hidden = await call(
      ctx,
      applicant,
      "GET",
      `/api/v1/applications/${application.id}/reviews/`,
    );
    expect(hidden.status).toBe(403);
    await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
    expect((await problemOf(await score(r2, application.id, GOOD))).code).toBe("REVIEWS_CLOSED");
  });

  test("a conflict of interest removes the reviewer from the application for good", async () => {
    const [r1, r2] = [await newReviewer(), await newReviewer()];
    const { intake } = await reviewedProgram([r1, r2]);
    const { application } = await submittedApplication(ctx, intake.id);
    await assign(application.id, { reviewerId: r1.user.id });
    await assign(application.id, { reviewerId: r2.user.id });
    await expectJson(await score(r1, application.id, GOOD));
    await expectJson(await score(r2, application.id, { ...GOOD, recommendation: "reject" }));
    await expectJson(
      await call(ctx, r1, "POST", `/api/v1/applications/${application.id}/conflict-of-interest/`, {
        reason: "The applicant is my niece",
      }),
    );
    const view = await expectJson<{
      reviews: { reviewer: { id: string }; excluded: boolean }[];
      assignments: { reviewer: { id: string } }[];
      conflicts: { reviewer: { id: string }; reason: string }[];
      recommendations: Record<string, number>;
    }>(await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/reviews/`));
    expect(view.assignments.map((a) => a.reviewer.id)).toEqual([r2.user.id]);
    expect(view.conflicts).toMatchObject([
      { reviewer: { id: r1.user.id }, reason: "The applicant is my niece" },
    ]);
    expect(view.reviews.find((r) => r.reviewer.id === r1.user.id)?.excluded).toBe(true);
    expect(view.recommendations).toMatchObject({ offer: 0, reject: 1 });
    const reads = await call(ctx, r1, "GET", `/api/v1/applications/${application.id}/reviews/`);
    expect((await problemOf(reads)).code).toBe("CONFLICT_OF_INTEREST");
    expect((await problemOf(await score(r1, application.id, GOOD))).code).toBe("NOT_ASSIGNED");
    const back = await assign(application.id, { reviewerId: r1.user.id });
    expect((await problemOf(back)).code).toBe("REVIEWER_CONFLICTED");
  });

  test("a reviewer's queue shows their own assignments awaiting a decision", async () => {
    const [mine, other] = [await newReviewer(), await newReviewer()];
    const { intake } = await reviewedProgram([mine, other]);
    const a = (await submittedApplication(ctx, intake.id)).application;
    ctx.clock.advance(1);
    const b = (await submittedApplication(ctx, intake.id)).application;
    const c = (await submittedApplication(ctx, intake.id)).application;
    await assign(a.id, { reviewerId: mine.user.id });
    await assign(b.id, { reviewerId: mine.user.id });
    await assign(c.id, { reviewerId: other.user.id });
    await expectJson(await score(mine, a.id, GOOD));
    type Queue = Paged<{ application: { id: string }; reviewed: boolean }>;
    const queue = await expectJson<Queue>(await call(ctx, mine, "GET", "/api/v1/staff/queue/"));
    expect(queue.count).toBe(2);
    expect(queue.results.map((i) => [i.application.id, i.reviewed])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
    const pending = await expectJson<Queue>(
      await call(ctx, mine, "GET", "/api/v1/staff/queue/?pending=true"),
    );
    expect(pending.results.map((i) => i.application.id)).toEqual([b.id]);
    await expectJson(await decide(ctx, admin, a.id, { decision: "reject" }));
    const after = await expectJson<Queue>(await call(ctx, mine, "GET", "/api/v1/staff/queue/"));
    expect(after.results.map((i) => i.application.id)).toEqual([b.id]);
    const applicant = await signIn(ctx);
    expect((await call(ctx, applicant, "GET", "/api/v1/staff/queue/")).status).toBe(403);
  });
});

describe("the staff list filters", () => {
  test("by assigned reviewer (`me` too) and by submission dates; applicants cannot filter by reviewer", async () => {
    const reviewer = await newReviewer();
    const { intake } = await reviewedProgram([reviewer]);
    const early = (await submittedApplication(ctx, intake.id)).application;
    ctx.clock.advance(60_000);
    const cut = new Date(ctx.clock.now()).toISOString();
    const late = (await submittedApplication(ctx, intake.id)).application;
    await assign(late.id, { reviewerId: reviewer.user.id });
    const ids = async (who: Session, query: string) =>
      (
        await expectJson<Paged<{ id: string }>>(
          await call(ctx, who, "GET", `/api/v1/applications/?intakeId=${intake.id}&${query}`),
        )
      ).results.map((a) => a.id);
    expect(await ids(admin, `reviewerId=${reviewer.user.id}`)).toEqual([late.id]);
    expect(await ids(reviewer, "reviewerId=me")).toEqual([late.id]);
    expect(await ids(admin, `submittedFrom=${cut}`)).toEqual([late.id]);
    expect(await ids(admin, `submittedTo=${cut}`)).toEqual([early.id]);
    const page = await expectJson<Paged<unknown>>(
      await call(
        ctx,
        admin,
        "GET",
        `/api/v1/applications/?intakeId=${intake.id}&submittedTo=${cut}`,
      ),
    );
    expect(page.count).toBe(1);
    const applicant = await signIn(ctx);
    const refused = await call(ctx, applicant, "GET", "/api/v1/applications/?reviewerId=me");
    expect(refused.status).toBe(403);
    expect(
      (await call(ctx, admin, "GET", "/api/v1/applications/?submittedFrom=yesterday")).status,
    ).toBe(422);
  });
});
