import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText, singleLineText } from "../../lib/text.ts";
import { DecisionFields } from "../workflow/model.ts";

export const LEVELS = ["certificate", "diploma", "bachelor", "master", "doctorate"] as const;
export const Level = enumOf(LEVELS);

/** Document types a program can require; the documents feature stores files of these types. */
export const DOCUMENT_TYPES = [
  "transcript",
  "identity_document",
  "personal_statement",
  "recommendation_letter",
  "cv",
  "language_certificate",
  "portfolio",
  "research_proposal",
] as const;
export const DocumentType = enumOf(DOCUMENT_TYPES);
export type DocumentType = typeof DocumentType.static;

/**
 * What an applicant uploads to prove an offer's condition met (a certificate, final grades):
 * stored with the application's documents, never a type a program requires.
 */
export const EVIDENCE_TYPE = "condition_evidence";
export const STORED_DOCUMENT_TYPES = [...DOCUMENT_TYPES, EVIDENCE_TYPE] as const;
export const StoredDocumentType = enumOf(STORED_DOCUMENT_TYPES, {
  description: "A type the program asks for, or condition_evidence: proof for an offer's condition",
});
export type StoredDocumentType = typeof StoredDocumentType.static;

export const Money = t.Object({
  amount: int({
    minimum: 0,
    maximum: 100_000_000,
    description: "Minor units (cents): 7500 is 75.00",
    examples: [7500],
  }),
  currency: t.String({ pattern: "^[A-Z]{3}$", description: "ISO 4217", examples: ["EUR"] }),
});

export const Intake = t.Object({
  id: Id,
  programId: Id,
  term: t.String({ examples: ["Autumn 2026"] }),
  opensAt: Timestamp,
  deadline: Timestamp,
  capacity: int({ minimum: 1 }),
  isOpen: t.Boolean({ description: "Accepting applications now: opensAt ≤ now < deadline" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Intake = typeof Intake.static;

export const Program = t.Object({
  id: Id,
  code: t.String({ examples: ["CS-BSC"] }),
  name: t.String({ examples: ["Computer Science"] }),
  level: Level,
  department: t.String({ examples: ["School of Computing"] }),
  description: t.String(),
  durationMonths: int({ minimum: 1, examples: [36] }),
  applicationFee: Money,
  entryRequirements: t.String(),
  requiredDocuments: t.Array(DocumentType),
  active: t.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Program = typeof Program.static;

export const ProgramDetail = t.Composite([
  Program,
  t.Object({ intakes: t.Array(Intake, { description: "Every intake, soonest deadline first" }) }),
]);
export type ProgramDetail = typeof ProgramDetail.static;

const programFields = {
  code: t.String({
    pattern: "^[A-Z0-9][A-Z0-9-]{1,31}$",
    description: "Upper-case letters, digits and hyphens",
    examples: ["CS-BSC"],
  }),
  name: singleLineText({ minLength: 1, maxLength: 200 }),
  level: Level,
  department: singleLineText({ minLength: 1, maxLength: 200 }),
  description: multiLineText({ maxLength: 10_000 }),
  durationMonths: int({ minimum: 1, maximum: 120 }),
  applicationFee: Money,
  entryRequirements: multiLineText({ maxLength: 10_000 }),
  requiredDocuments: t.Array(DocumentType, { uniqueItems: true, maxItems: DOCUMENT_TYPES.length }),
  active: t.Boolean(),
};

export const ProgramCreate = t.Object(
  {
    ...programFields,
    description: t.Optional(programFields.description),
    entryRequirements: t.Optional(programFields.entryRequirements),
    requiredDocuments: t.Optional(programFields.requiredDocuments),
    active: t.Optional(programFields.active),
  },
  {
    examples: [
      {
        code: "DS-MSC",
        name: "Data Science",
        level: "master",
        department: "School of Computing",
        durationMonths: 12,
        applicationFee: { amount: 7500, currency: "EUR" },
        requiredDocuments: ["transcript", "cv"],
      },
    ],
  },
);
export type ProgramCreate = typeof ProgramCreate.static;

export const ProgramUpdate = t.Partial(t.Object(programFields), { minProperties: 1 });
export type ProgramUpdate = typeof ProgramUpdate.static;

const intakeFields = {
  term: singleLineText({ minLength: 1, maxLength: 60, examples: ["Autumn 2026"] }),
  opensAt: t.String({ format: "date-time", examples: ["2026-01-10T00:00:00Z"] }),
  deadline: t.String({ format: "date-time", examples: ["2026-06-30T23:59:59Z"] }),
  capacity: int({ minimum: 1, maximum: 1_000_000, examples: [120] }),
};
export const IntakeCreate = t.Object(intakeFields);
export type IntakeCreate = typeof IntakeCreate.static;
export const IntakeUpdate = t.Partial(t.Object(intakeFields), { minProperties: 1 });
export type IntakeUpdate = typeof IntakeUpdate.static;

export const PROGRAM_ORDERINGS = [
  "name",
  "-name",
  "code",
  "-code",
  "applicationFee",
  "-applicationFee",
  "createdAt",
  "-createdAt",
] as const;

export const ProgramListQuery = t.Object({
  ...PageQuery,
  search: t.Optional(
    t.String({ maxLength: 100, description: "Matches name, code or department (any case)" }),
  ),
  level: t.Optional(Level),
  department: t.Optional(t.String({ maxLength: 200, description: "Exact department name" })),
  openForApplications: t.Optional(
    t.Boolean({ description: "Only programs with an intake accepting applications now" }),
  ),
  active: t.Optional(
    t.Boolean({ description: "Staff only; everyone else always sees active programs only" }),
  ),
  ordering: t.Optional(enumOf(PROGRAM_ORDERINGS, { default: "name" })),
});
export type ProgramListQuery = typeof ProgramListQuery.static;

/** A program as the list shows it: what a card needs to say when to apply by. */
export const ProgramListItem = t.Composite([
  Program,
  t.Object({
    nextDeadline: t.Nullable(Timestamp, {
      description:
        "The soonest deadline of an intake accepting applications now; null when none is open",
    }),
  }),
]);
export type ProgramListItem = typeof ProgramListItem.static;

export const ProgramPage = Paginated(ProgramListItem, "A page of programs");

// An intake's waitlist and decision deadline (staff).

export const PromoteBody = t.Optional(
  t.Object({
    respondBy: DecisionFields.respondBy,
    reason: t.Optional(multiLineText({ maxLength: 2_000 })),
  }),
);

export const WaitlistQuery = t.Object(PageQuery);

export const DecisionsDue = t.Object({
  intakeId: t.String(),
  decisionsDueAt: t.Nullable(t.String({ format: "date-time" })),
});
export type DecisionsDue = typeof DecisionsDue.static;

export const DecisionsDueBody = t.Object(
  {
    decisionsDueAt: t.Nullable(
      t.String({
        format: "date-time",
        description: "In the future; null removes the date (and its reminders)",
      }),
    ),
  },
  { examples: [{ decisionsDueAt: "2026-03-31T17:00:00Z" }] },
);
export type DecisionsDueBody = typeof DecisionsDueBody.static;
