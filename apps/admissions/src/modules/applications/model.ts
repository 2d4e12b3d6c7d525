import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, idInput, int } from "../../lib/schema.ts";
import { multiLineText, singleLineText } from "../../lib/text.ts";
import {
  ApplicationStatus,
  DecisionFields,
  FormFields,
  ReasonCode,
  STATUSES,
  Transition,
} from "../workflow/model.ts";

/** The form's text as the applicant sends it (what is stored is `FormFields`, unchecked). */
const FormInput = {
  personalStatement: multiLineText({ maxLength: 20_000 }),
  priorQualification: singleLineText({ maxLength: 200, examples: ["A-levels: A*AA"] }),
  priorInstitution: singleLineText({ maxLength: 200, examples: ["Springfield High School"] }),
};

export const ApplicationCreate = t.Object(
  {
    intakeId: idInput(),
    personalStatement: t.Optional(FormInput.personalStatement),
    priorQualification: t.Optional(FormInput.priorQualification),
    priorInstitution: t.Optional(FormInput.priorInstitution),
    graduationYear: t.Optional(FormFields.graduationYear),
  },
  {
    examples: [
      {
        intakeId: "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10",
        personalStatement: "I have wanted to study computing since…",
        priorQualification: "A-levels: A*AA",
      },
    ],
  },
);
export type ApplicationCreate = typeof ApplicationCreate.static;

const VersionField = int({
  minimum: 1,
  description: "The version you last read; a stale one is refused (409 VERSION_CONFLICT)",
});

export const ApplicationUpdate = t.Object(
  {
    personalStatement: t.Optional(FormInput.personalStatement),
    priorQualification: t.Optional(FormInput.priorQualification),
    priorInstitution: t.Optional(FormInput.priorInstitution),
    graduationYear: t.Optional(FormFields.graduationYear),
    version: t.Optional(VersionField),
  },
  { minProperties: 1 },
);
export type ApplicationUpdate = typeof ApplicationUpdate.static;

const Reason = multiLineText({ maxLength: 2_000 });

export const TransitionRequest = t.Object({
  to: ApplicationStatus,
  reason: t.Optional(Reason),
  reasonCode: t.Optional(ReasonCode),
  version: t.Optional(VersionField),
  ...DecisionFields,
});
export type TransitionRequest = typeof TransitionRequest.static;

/** Body of submit, accept, decline and withdraw; optional. */
export const ActionBody = t.Optional(
  t.Object({
    reason: t.Optional(Reason),
    reasonCode: t.Optional(ReasonCode),
    version: t.Optional(VersionField),
  }),
);

export const APPLICATION_ORDERINGS = [
  "createdAt",
  "-createdAt",
  "updatedAt",
  "-updatedAt",
  "submittedAt",
  "-submittedAt",
] as const;

const STATUS_LIST = `^(${STATUSES.join("|")})(,(${STATUSES.join("|")}))*$`;

export const ApplicationListQuery = t.Object({
  ...PageQuery,
  status: t.Optional(
    t.String({
      pattern: STATUS_LIST,
      description: "One status or several, comma-separated",
      examples: ["submitted,under_review"],
    }),
  ),
  programId: t.Optional(idInput()),
  intakeId: t.Optional(idInput()),
  search: t.Optional(
    t.String({
      maxLength: 100,
      description: "Applicant name or email, program name or code (any case)",
    }),
  ),
  reviewerId: t.Optional(
    idInput({
      description: "Staff only: applications assigned to this reviewer (`me`: to you)",
      examples: ["me"],
    }),
  ),
  submittedFrom: t.Optional(
    t.String({ format: "date-time", description: "Submitted at or after" }),
  ),
  submittedTo: t.Optional(t.String({ format: "date-time", description: "Submitted before" })),
  ordering: t.Optional(enumOf(APPLICATION_ORDERINGS, { default: "-createdAt" })),
});
export type ApplicationListQuery = typeof ApplicationListQuery.static;

export const TransitionPage = Paginated(Transition, "An application's history, oldest first");
