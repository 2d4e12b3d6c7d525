import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, int, Timestamp } from "../../lib/schema.ts";
import { Application } from "../workflow/model.ts";

export const Criterion = t.Object({
  key: t.String({ pattern: "^[a-z][a-z0-9_]{0,39}$", examples: ["academic_record"] }),
  label: t.String({ minLength: 1, maxLength: 200, examples: ["Academic record"] }),
  weight: int({ minimum: 1, maximum: 100, description: "Relative weight in the total" }),
});

export const Scale = t.Object({
  min: int({ minimum: 0, maximum: 100, examples: [1] }),
  max: int({ minimum: 1, maximum: 100, examples: [5] }),
});

export const RubricBody = t.Object(
  { scale: Scale, criteria: t.Array(Criterion, { minItems: 1, maxItems: 20 }) },
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
  ...RubricBody.properties,
  updatedAt: Timestamp,
});
export type Rubric = typeof Rubric.static;

export const RECOMMENDATIONS = ["offer", "waitlist", "reject", "discuss"] as const;
export const Recommendation = enumOf(RECOMMENDATIONS);

export const ReviewBody = t.Object(
  {
    scores: t.Record(t.String({ maxLength: 40 }), int({ minimum: 0, maximum: 100 }), {
      description: "One score per criterion key of the program's rubric, within its scale",
    }),
    recommendation: Recommendation,
    comment: t.Optional(t.String({ maxLength: 10_000 })),
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

const Person = t.Object({ id: Id, email: t.String(), fullName: t.String() });

export const Review = t.Object({
  id: Id,
  applicationId: Id,
  reviewer: Person,
  scores: t.Record(t.String(), t.Integer()),
  weightedTotal: t.Number({ description: "Σ score × weight / Σ weight, on the rubric's scale" }),
  recommendation: Recommendation,
  comment: t.String(),
  excluded: t.Boolean({ description: "The reviewer declared a conflict of interest since" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Review = typeof Review.static;

export const ApplicationReviews = t.Object({
  applicationId: Id,
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
    Object.fromEntries(RECOMMENDATIONS.map((r) => [r, t.Integer({ minimum: 0 })])) as Record<
      (typeof RECOMMENDATIONS)[number],
      ReturnType<typeof t.Integer>
    >,
    { description: "How many counted reviews recommend each outcome" },
  ),
});
export type ApplicationReviews = typeof ApplicationReviews.static;

export const AssignBody = t.Optional(
  t.Object(
    {
      reviewerId: t.Optional(
        t.String({
          maxLength: 64,
          description: "Omit for round-robin among the program's reviewers",
        }),
      ),
    },
    { examples: [{}, { reviewerId: "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10" }] },
  ),
);

export const ConflictBody = t.Object(
  { reason: t.String({ minLength: 1, maxLength: 2_000 }) },
  { examples: [{ reason: "The applicant is a relative" }] },
);

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

export const ApplicationParams = t.Object({ id: t.String({ maxLength: 64 }) });
export const AssignmentParams = t.Object({
  id: t.String({ maxLength: 64 }),
  reviewerId: t.String({ maxLength: 64 }),
});
