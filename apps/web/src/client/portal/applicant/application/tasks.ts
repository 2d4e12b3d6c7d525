import type {
  Application,
  Checklist,
  FeeSummary,
  Profile,
  ReferenceList,
} from "../../api/types.ts";

/*
 * The task list's sections and each one's state, as GOV.UK's task list pattern has them (not
 * started, in progress, completed). The API keeps no "section done" flag: each state is read
 * from the answers themselves. The API alone decides whether an application can be sent
 * (verified email, the required documents, the fee); these states only tell the applicant
 * where they are.
 */

export const SECTIONS = [
  "details",
  "qualifications",
  "statement",
  "documents",
  "referees",
  "fee",
] as const;
export type Section = (typeof SECTIONS)[number];
export type TaskState = "not_started" | "in_progress" | "completed";

/** A statement this long (about 20 words) counts as written; the hint says so. */
export const STATEMENT_COMPLETE_AT = 100;

export type TaskFacts = {
  application: Application;
  profile: Profile | null;
  checklist: Checklist | null;
  fee: FeeSummary | null;
  referees: ReferenceList | null;
};

const filled = (values: (string | null | undefined)[]): TaskState => {
  const given = values.filter((v) => v !== null && v !== undefined && v.trim() !== "").length;
  return given === 0 ? "not_started" : given === values.length ? "completed" : "in_progress";
};

/** Every section's state, from what has been answered so far. */
export function taskStates(facts: TaskFacts): Record<Section, TaskState> {
  const { application: a, profile: p, checklist, fee, referees } = facts;
  const statement = a.personalStatement.trim().length;
  const items = checklist?.items ?? [];
  const onFile = items.filter((i) => i.status === "uploaded" || i.status === "verified").length;
  return {
    details: filled([p?.legalName, p?.dateOfBirth, p?.nationality, p?.phone, p?.address?.city]),
    qualifications: filled([
      a.priorQualification,
      a.priorInstitution,
      a.graduationYear === null ? null : String(a.graduationYear),
    ]),
    statement:
      statement === 0
        ? "not_started"
        : statement < STATEMENT_COMPLETE_AT
          ? "in_progress"
          : "completed",
    documents:
      checklist?.complete === true
        ? "completed"
        : onFile > 0 || items.some((i) => i.status === "rejected")
          ? "in_progress"
          : "not_started",
    referees: (referees?.references.length ?? 0) > 0 ? "completed" : "not_started",
    fee:
      fee === null || fee.status === "unpaid"
        ? fee?.pendingPaymentId
          ? "in_progress"
          : "not_started"
        : "completed",
  };
}

/** The section pages' path segments (routes.ts: `/portal/applications/:id/<segment>`). */
export const SECTION_PATH: Record<Section, string> = {
  details: "details",
  qualifications: "qualifications",
  statement: "statement",
  documents: "documents",
  referees: "referees",
  fee: "fee",
};
