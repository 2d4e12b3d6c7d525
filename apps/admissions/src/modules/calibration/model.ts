import { t } from "elysia";
import { Id, idInput, int, Timestamp } from "../../lib/schema.ts";
import { Scale } from "../rubric/model.ts";
import { ApplicationStatus } from "../workflow/model.ts";

const scope = {
  programId: idInput({ description: "The program whose reviews are read" }),
  intakeId: t.Optional(idInput({ description: "Only this intake of the program (default: all)" })),
};
export const CalibrationQuery = t.Object(scope);
export type CalibrationQuery = typeof CalibrationQuery.static;

export const RankingQuery = t.Object({
  ...scope,
  normalised: t.Optional(
    t.BooleanString({
      description: "true: rank by reviewer-normalised totals (raw scores are kept and shown)",
    }),
  ),
});
export type RankingQuery = typeof RankingQuery.static;

const Num = (description: string) => t.Nullable(t.Number({ description }));
const Spread = t.Object({
  count: int({ minimum: 0 }),
  mean: Num("Mean weighted total; null without reviews"),
  sd: Num("Population standard deviation; null without reviews"),
});
const Person = t.Object({ id: Id, email: t.String(), fullName: t.String() });

export const Calibration = t.Object({
  programId: Id,
  intakeId: t.Nullable(Id),
  scale: Scale,
  panel: t.Object(Spread.properties, {
    description: "Every counted review in scope: the scale normalised totals are mapped onto",
  }),
  reviewers: t.Array(
    t.Object({
      reviewer: Person,
      ...Spread.properties,
      panel: t.Object(Spread.properties, {
        description: "The other reviewers' totals on the applications this reviewer scored",
      }),
      difference: Num("mean − panel.mean: above 0 scores more generously than the panel"),
      normalisable: t.Boolean({ description: "At least 2 reviews: normalisation rescales them" }),
    }),
  ),
});
export type Calibration = typeof Calibration.static;

export const Ranking = t.Object({
  programId: Id,
  intakeId: t.Nullable(Id),
  normalised: t.Boolean(),
  items: t.Array(
    t.Object({
      rank: int({ minimum: 1 }),
      applicationId: Id,
      status: ApplicationStatus,
      applicant: t.Object({ id: Id, fullName: t.String() }),
      reviews: int({ minimum: 1 }),
      rawScore: t.Number({ description: "Mean of the counted reviews' weighted totals" }),
      score: t.Number({ description: "What the rank follows: rawScore, or the normalised mean" }),
    }),
  ),
});
export type Ranking = typeof Ranking.static;

export const ExtraReviewsQuery = t.Object({
  programId: t.Optional(idInput()),
  flagged: t.Optional(
    t.BooleanString({ description: "true: only those no reviewer was free for, unresolved" }),
  ),
});
export type ExtraReviewsQuery = typeof ExtraReviewsQuery.static;

export const ExtraReviews = t.Object({
  items: t.Array(
    t.Object({
      applicationId: Id,
      programId: Id,
      reviewerId: t.Nullable(Id, { description: "null: flagged, nobody eligible was free" }),
      lowTotal: t.Number(),
      highTotal: t.Number(),
      threshold: t.Number(),
      createdAt: Timestamp,
      resolvedAt: t.Nullable(Timestamp),
    }),
  ),
});
export type ExtraReviews = typeof ExtraReviews.static;
