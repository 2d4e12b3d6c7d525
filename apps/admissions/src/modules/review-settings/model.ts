import { t } from "elysia";
import { Id } from "../../lib/schema.ts";

export const ReviewSettingsBody = t.Object(
  {
    blindReview: t.Boolean({
      description:
        "Reviewers (not admins) see no applicant name, email, prior institution, profile or uploaded file names",
    }),
    disagreementThreshold: t.Nullable(
      t.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description:
          "Two weighted totals further apart than this (points on the rubric's scale) request an extra review; null: ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD",
      }),
    ),
  },
  { examples: [{ blindReview: true, disagreementThreshold: 1.5 }] },
);
export type ReviewSettingsBody = typeof ReviewSettingsBody.static;

export const ReviewSettings = t.Object({
  programId: Id,
  ...ReviewSettingsBody.properties,
  effectiveThreshold: t.Nullable(
    t.Number({
      description:
        "The threshold in force: the program's, else the configured default; null: no automatic extra review",
    }),
  ),
});
export type ReviewSettings = typeof ReviewSettings.static;
