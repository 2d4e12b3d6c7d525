import { t } from "elysia";
import { enumOf, Id, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";
import { InterviewSummary } from "../interviews/model.ts";
import { Rubric } from "../rubric/model.ts";

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

const Person = t.Object({ id: Id, email: t.String(), fullName: t.String() });

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
    Object.fromEntries(RECOMMENDATIONS.map((r) => [r, int({ minimum: 0 })])) as Record<
      (typeof RECOMMENDATIONS)[number],
      ReturnType<typeof int>
    >,
    { description: "How many counted reviews recommend each outcome" },
  ),
  interview: InterviewSummary,
});
export type ApplicationReviews = typeof ApplicationReviews.static;
