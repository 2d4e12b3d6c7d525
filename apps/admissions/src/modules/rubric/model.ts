import { t } from "elysia";
import { Id, int, Timestamp } from "../../lib/schema.ts";
import { singleLineText } from "../../lib/text.ts";

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
