import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idInput, idParams, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText, singleLineText } from "../../lib/text.ts";
import { Application, ApplicationStatus } from "../workflow/model.ts";

const Person = t.Object({ id: Id, email: t.String(), fullName: t.String() });

// A program's rubric: what reviewers score and how each criterion weighs.

const criterionFields = {
  key: t.String({ pattern: "^[a-z][a-z0-9_]{0,39}$", examples: ["academic_record"] }),
  label: t.String({ minLength: 1, maxLength: 200, examples: ["Academic record"] }),
  weight: int({ minimum: 1, maximum: 100, description: "Relative weight in the total" }),
};
export const Criterion = t.Object(criterionFields);
/** As sent by an admin: the label is one line of text (lib/text.ts). */
const CriterionInput = t.Object({
  ...criterionFields,
  label: singleLineText({ minLength: 1, maxLength: 200, examples: ["Academic record"] }),
});

export const Scale = t.Object({
  min: int({ minimum: 0, maximum: 100, examples: [1] }),
  max: int({ minimum: 1, maximum: 100, examples: [5] }),
});

export const RubricBody = t.Object(
  { scale: Scale, criteria: t.Array(CriterionInput, { minItems: 1, maxItems: 20 }) },
  {
    examples: [
      {
        scale: { min: 1, max: 5 },
        criteria: [
          { key: "academic_record", label: "Academic record", weight: 3 },
          { key: "statement", label: "Personal statement", weight: 1 },
        ],
      },
    ],
  },
);
export type RubricBody = typeof RubricBody.static;

export const Rubric = t.Object({
  programId: Id,
  scale: Scale,
  criteria: t.Array(Criterion, { minItems: 1, maxItems: 20 }),
  updatedAt: Timestamp,
});
export type Rubric = typeof Rubric.static;

// A program's review settings: blind review and the extra-review threshold.

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

// An application's reviewers and a staff member's conflict of interest.

export const AssignBody = t.Optional(
  t.Object(
    {
      reviewerId: t.Optional(
        idInput({ description: "Omit for round-robin among the program's reviewers" }),
      ),
    },
    { examples: [{}, { reviewerId: "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10" }] },
  ),
);

export const Assigned = t.Object({
  reviewerId: Id,
  assignedAt: Timestamp,
});

export const AssignmentParams = idParams("id", "reviewerId");

/** At most this many applications in one bulk assignment (as bulk moves). */
export const MAX_BULK_ASSIGN = 200;

export const BulkAssignBody = t.Object(
  {
    applicationIds: t.Array(idInput(), {
      minItems: 1,
      maxItems: MAX_BULK_ASSIGN,
      uniqueItems: true,
    }),
    reviewerId: t.Optional(
      idInput({ description: "Omit for round-robin, application by application" }),
    ),
  },
  {
    examples: [
      {
        applicationIds: [
          "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10",
          "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a11",
        ],
        reviewerId: "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a99",
      },
    ],
  },
);
export type BulkAssignBody = typeof BulkAssignBody.static;

export const BulkAssigned = t.Object({
  batchId: t.String({ format: "uuid", description: "Names this change in the audit log" }),
  assigned: int({ minimum: 1 }),
  assignments: t.Array(t.Object({ applicationId: Id, reviewerId: Id, assignedAt: Timestamp })),
});
export type BulkAssigned = typeof BulkAssigned.static;

export const WorkloadQuery = t.Object({
  programId: t.Optional(idInput({ description: "Only the programme's reviewers (its pool)" })),
});
export type WorkloadQuery = typeof WorkloadQuery.static;

export const Workload = t.Object({
  results: t.Array(
    t.Object({
      reviewer: t.Object({ id: Id, fullName: t.String(), email: t.String() }),
      open: int({
        minimum: 0,
        description: "Assignments on applications still submitted, under review or interviewing",
      }),
      reviewed: int({ minimum: 0, description: "Of those, the ones they have reviewed" }),
    }),
    { description: "Active staff, the least loaded first, then by name" },
  ),
});
export type Workload = typeof Workload.static;

export const ConflictBody = t.Object(
  { reason: multiLineText({ minLength: 1, maxLength: 2_000 }) },
  { examples: [{ reason: "The applicant is a relative" }] },
);

export const Conflict = t.Object({
  applicationId: Id,
  reviewerId: Id,
  reason: t.String(),
  at: Timestamp,
});

// The reviews themselves, and everything staff read to decide.

export const RECOMMENDATIONS = ["offer", "waitlist", "reject", "discuss"] as const;
export const Recommendation = enumOf(RECOMMENDATIONS);

export const ReviewBody = t.Object(
  {
    scores: t.Record(t.String({ maxLength: 40 }), int({ minimum: 0, maximum: 100 }), {
      description: "One score per criterion key of the program's rubric, within its scale",
    }),
    recommendation: Recommendation,
    comment: t.Optional(multiLineText({ maxLength: 10_000 })),
  },
  {
    examples: [
      {
        scores: { academic_record: 4, statement: 5 },
        recommendation: "offer",
        comment: "Strong record",
      },
    ],
  },
);
export type ReviewBody = typeof ReviewBody.static;

export const Review = t.Object({
  id: Id,
  applicationId: Id,
  reviewer: Person,
  scores: t.Record(t.String(), int()),
  weightedTotal: t.Number({ description: "Σ score × weight / Σ weight, on the rubric's scale" }),
  recommendation: Recommendation,
  comment: t.String(),
  excluded: t.Boolean({ description: "The reviewer declared a conflict of interest since" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Review = typeof Review.static;

/** What the review shows of the application's interviews (modules/interviews scores them). */
export const InterviewSummary = t.Object(
  {
    score: t.Nullable(
      t.Number({ description: "Mean of the panel's scores, on the rubric's scale" }),
    ),
    scores: int({ minimum: 0, description: "How many panel scores the mean is of" }),
  },
  { description: "Interview scores of the application's interviews that were not cancelled" },
);
export type InterviewSummary = typeof InterviewSummary.static;

/** One application's automatic extra review (internal/extra-review.ts): asked for, or flagged. */
export const ExtraReview = t.Object({
  applicationId: Id,
  programId: Id,
  reviewerId: t.Nullable(Id, { description: "null: flagged, nobody eligible was free" }),
  lowTotal: t.Number(),
  highTotal: t.Number(),
  threshold: t.Number(),
  createdAt: Timestamp,
  resolvedAt: t.Nullable(Timestamp),
});
export type ExtraReview = typeof ExtraReview.static;

export const ApplicationReviews = t.Object({
  applicationId: Id,
  blindReview: t.Boolean({
    description:
      "The program is reviewed blind: reviewers get no name, email, institution, profile or file names",
  }),
  rubric: t.Nullable(Rubric),
  assignments: t.Array(
    t.Object({ reviewer: Person, assignedAt: Timestamp, reviewed: t.Boolean() }),
  ),
  conflicts: t.Array(t.Object({ reviewer: Person, reason: t.String(), at: Timestamp })),
  reviews: t.Array(Review),
  weightedTotal: t.Nullable(
    t.Number({ description: "Mean of the reviews' weighted totals (conflicted ones excluded)" }),
  ),
  recommendations: t.Object(
    Object.fromEntries(RECOMMENDATIONS.map((r) => [r, int({ minimum: 0 })])) as Record<
      (typeof RECOMMENDATIONS)[number],
      ReturnType<typeof int>
    >,
    { description: "How many counted reviews recommend each outcome" },
  ),
  interview: InterviewSummary,
  extraReview: t.Nullable(ExtraReview, {
    description:
      "Two counted totals disagreed past the threshold: the extra reviewer assigned, or null reviewerId while flagged (unresolved until an admin assigns one)",
  }),
});
export type ApplicationReviews = typeof ApplicationReviews.static;

// A reviewer's own queue.

export const QueueQuery = t.Object({
  ...PageQuery,
  pending: t.Optional(t.BooleanString({ description: "true: only those you have not reviewed" })),
});
export type QueueQuery = typeof QueueQuery.static;

export const QueueItem = t.Object({
  application: Application,
  assignedAt: Timestamp,
  reviewed: t.Boolean(),
});
export type QueueItem = typeof QueueItem.static;
export const QueuePage = Paginated(
  QueueItem,
  "Your assigned applications, oldest submission first",
);

// Calibration: how reviewers score against each other, and the automatic extra reviews.

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

export const ExtraReviews = t.Object({ items: t.Array(ExtraReview) });
export type ExtraReviews = typeof ExtraReviews.static;
