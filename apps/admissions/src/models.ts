/**
 * What other workspaces may take from admissions (`@platform/admissions/models`): the schemas of
 * the API's public shapes, their types, and the value lists pages name (statuses, document
 * types…). The web portal imports types from here (erased from its bundle) and its tests the
 * lists; nothing else of this app is reachable from outside it.
 */

export type { EmailVerification } from "./modules/account/model.ts";
export type {
  ApplicationCreate,
  ApplicationUpdate,
  TransitionRequest,
} from "./modules/applications/model.ts";
export type { AuditEntry, ChainReport } from "./modules/audit/model.ts";
export type { Accepted, LoginResult, RegisterBody, Session } from "./modules/auth/model.ts";
export {
  DOCUMENT_TYPES,
  EVIDENCE_TYPE,
  type Intake,
  type IntakeCreate,
  type IntakeUpdate,
  LEVELS,
  type Program,
  type ProgramCreate,
  type ProgramDetail,
  type ProgramListItem,
  type ProgramUpdate,
} from "./modules/catalog/model.ts";
export {
  type DataRequest,
  REQUEST_KINDS,
  REQUEST_STATUSES,
} from "./modules/data-rights/model.ts";
export { CHECKLIST_STATUSES, type Checklist, type Document } from "./modules/documents/model.ts";
export { EVENT_TYPES } from "./modules/events/model.ts";
export {
  type Clashes,
  INTERVIEW_STATUSES,
  type Interview,
  type Reschedule,
  type ScoreBody as InterviewScoreBody,
  type SlotCreate,
} from "./modules/interviews/model.ts";
export type { MfaStatus, RecoveryCodes, TotpEnrolment } from "./modules/mfa/model.ts";
export {
  CONDITION_STATUSES,
  type Condition,
  type ConditionList,
  type ConditionUpdate,
  DECISIONS,
  DEFERRAL_STATUSES,
  type DecisionBody,
  type Deferral,
  type DeferralCreate,
  type DeferralList,
  type Reason,
  type ReasonCreate,
  type ReasonUpdate,
  type StaffDeferral,
} from "./modules/offers/model.ts";
export type { OutboxEmail } from "./modules/outbox/model.ts";
export {
  type BankAccount,
  type ConfirmBody,
  type DeskPayment,
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
  ReferenceContent,
  ReferenceList,
} from "./modules/references/model.ts";
export { REFERENCE_PAGE } from "./modules/references/service.ts";
export {
  type ApplicationReviews,
  type BulkAssigned,
  type Calibration,
  type ExtraReview,
  type QueueItem,
  type Ranking,
  RECOMMENDATIONS,
  type Review,
  type ReviewBody,
  type ReviewSettings,
  type ReviewSettingsBody,
  type Rubric,
  type RubricBody,
  type Workload,
} from "./modules/review/model.ts";
export {
  BulkResult,
  type BulkTransitionBody,
  type ExportQuery,
  OFFICE_ORDERINGS,
  type OfficeQueuePage,
  type OfficeQueueQuery,
  type OfficeQueueRow,
  PAYMENT_STATES,
  QUEUE_FLAGS,
  type Refusal,
  type StaffCreate,
  type Stats,
} from "./modules/staff/model.ts";
export type { PersonalDetails, User } from "./modules/users/model.ts";
export type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from "./modules/webhooks/model.ts";
export {
  type Application,
  type ApplicationStatus,
  AUDIT_ACTIONS,
  REASON_KINDS,
  type Seats,
  STATUSES,
  SYSTEM_NOTES,
  type Transition,
} from "./modules/workflow/model.ts";
export { admissionsProblems } from "./problems.ts";
