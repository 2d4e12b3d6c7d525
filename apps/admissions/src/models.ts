/**
 * What other workspaces may take from admissions (`@platform/admissions/models`): the schemas of
 * the API's public shapes, their types, and the value lists pages name (statuses, document
 * types…). The web portal imports types from here (erased from its bundle) and its tests the
 * lists; nothing else of this app is reachable from outside it.
 */

export type { EmailVerification } from "./modules/account/model.ts";
export type { ApplicationCreate, ApplicationUpdate } from "./modules/applications/model.ts";
export type { AuditEntry } from "./modules/audit/model.ts";
export type { Accepted, LoginResult, RegisterBody, Session } from "./modules/auth/model.ts";
export {
  DOCUMENT_TYPES,
  EVIDENCE_TYPE,
  type Intake,
  LEVELS,
  type Program,
  type ProgramDetail,
  type ProgramListItem,
} from "./modules/catalog/model.ts";
export type { DataRequest } from "./modules/data-rights/model.ts";
export { CHECKLIST_STATUSES, type Checklist, type Document } from "./modules/documents/model.ts";
export type { Interview } from "./modules/interviews/model.ts";
export {
  type Condition,
  type ConditionList,
  DECISIONS,
  type DecisionBody,
  type Deferral,
  type DeferralCreate,
} from "./modules/offers/model.ts";
export type { OutboxEmail } from "./modules/outbox/model.ts";
export {
  type BankAccount,
  FEE_STATUSES,
  type FeeSummary,
  PAYMENT_STATUSES,
  type Payment,
  PROVIDERS,
  type Receipt,
} from "./modules/payments/model.ts";
export type { Profile, ProfileChange } from "./modules/profile/model.ts";
export type {
  RefereeCreate,
  RefereeInvitation,
  Reference,
  ReferenceList,
} from "./modules/references/model.ts";
export { REFERENCE_PAGE } from "./modules/references/service.ts";
export {
  type ApplicationReviews,
  type QueueItem,
  RECOMMENDATIONS,
  type Review,
  type ReviewBody,
} from "./modules/review/model.ts";
export {
  BulkResult,
  type BulkTransitionBody,
  type Refusal,
  type StaffCreate,
  type Stats,
} from "./modules/staff/model.ts";
export type { PersonalDetails, User } from "./modules/users/model.ts";
export {
  type Application,
  type ApplicationStatus,
  type Seats,
  STATUSES,
  SYSTEM_NOTES,
  type Transition,
} from "./modules/workflow/model.ts";
export { admissionsProblems } from "./problems.ts";
