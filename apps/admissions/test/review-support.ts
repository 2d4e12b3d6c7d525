import type { Session, TestContext } from "./support.ts";
import { call, expectJson, intakeWithSeats, submittedApplication } from "./workflow-support.ts";

/** One criterion of weight 1 on 1..5: a review's weighted total is its score. */
export const ONE_CRITERION = {
  scale: { min: 1, max: 5 },
  criteria: [{ key: "overall", label: "Overall", weight: 1 }],
};

/** A program with the one-criterion rubric, `pool` as its reviewers, and an open intake. */
export async function poolProgram(ctx: TestContext, admin: Session, pool: Session[]) {
  const { program, intake } = await intakeWithSeats(ctx, admin);
  const base = `/api/v1/staff/programs/${program.id}`;
  await expectJson(await call(ctx, admin, "PUT", `${base}/rubric/`, ONE_CRITERION));
  await expectJson(
    await call(ctx, admin, "PUT", `${base}/reviewers/`, {
      reviewerIds: pool.map((r) => r.user.id),
    }),
  );
  return { program, intake };
}

/** A submitted application of the intake with `reviewers` assigned (so under review). */
export async function assignedApplication(
  ctx: TestContext,
  admin: Session,
  intakeId: string,
  reviewers: Session[],
) {
  const { application } = await submittedApplication(ctx, intakeId);
  for (const reviewer of reviewers) {
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/applications/${application.id}/assignments/`, {
        reviewerId: reviewer.user.id,
      }),
      201,
    );
  }
  return application;
}

/** The reviewer's review of the application: `score` on the one criterion. */
export const scoreAs = (ctx: TestContext, who: Session, applicationId: string, score: number) =>
  call(ctx, who, "PUT", `/api/v1/applications/${applicationId}/reviews/mine/`, {
    scores: { overall: score },
    recommendation: "discuss",
  });

/** Scores and expects 200. */
export async function scored(ctx: TestContext, who: Session, applicationId: string, score: number) {
  await expectJson(await scoreAs(ctx, who, applicationId, score));
}
