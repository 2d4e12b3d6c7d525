import { type ApiAnswer, call } from "../../api/client.ts";
import type { PageOf, User } from "../../api/types.ts";
import type {
  AuditEntry,
  BulkAssigned,
  ChainReport,
  ConfirmBody,
  DataRequest,
  DeskPayment,
  FeeSummary,
  Intake,
  IntakeCreate,
  IntakeUpdate,
  MfaStatus,
  OfficeQueuePage,
  Payment,
  Program,
  ProgramCreate,
  ProgramDetail,
  ProgramUpdate,
  Reason,
  ReasonCreate,
  ReasonUpdate,
  RecoveryCodes,
  ReviewSettings,
  ReviewSettingsBody,
  Rubric,
  RubricBody,
  TotpEnrolment,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
  Workload,
} from "./types.ts";

/** Rows per page of the office's lists; the API pages them, the pages never load it all. */
export const OFFICE_PAGE = 20;

/** `?a=1&b=x` of the values given (empty ones left out), for the lists' filters. */
export function queryOf(values: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** One typed function per admissions route the office's pages use. */
export const officeApi = {
  programmes: (query: string) => call<PageOf<Program>>("GET", `/catalog/programs/${query}`),
  programme: (id: string) => call<ProgramDetail>("GET", `/catalog/programs/${id}/`),
  createProgramme: (body: ProgramCreate) => call<Program>("POST", "/catalog/programs/", { body }),
  updateProgramme: (id: string, body: ProgramUpdate) =>
    call<Program>("PATCH", `/catalog/programs/${id}/`, { body }),
  createIntake: (programId: string, body: IntakeCreate) =>
    call<Intake>("POST", `/catalog/programs/${programId}/intakes/`, { body }),
  updateIntake: (id: string, body: IntakeUpdate) =>
    call<Intake>("PATCH", `/catalog/intakes/${id}/`, { body }),
  rubric: (programId: string) => call<Rubric>("GET", `/staff/programs/${programId}/rubric/`),
  saveRubric: (programId: string, body: RubricBody) =>
    call<Rubric>("PUT", `/staff/programs/${programId}/rubric/`, { body }),
  reviewSettings: (programId: string) =>
    call<ReviewSettings>("GET", `/staff/programs/${programId}/review-settings/`),
  saveReviewSettings: (programId: string, body: ReviewSettingsBody) =>
    call<ReviewSettings>("PUT", `/staff/programs/${programId}/review-settings/`, { body }),
  pool: (programId: string) =>
    call<{ reviewer: User; lastAssignedAt: string | null }[]>(
      "GET",
      `/staff/programs/${programId}/reviewers/`,
    ),
  savePool: (programId: string, reviewerIds: string[]) =>
    call<unknown>("PUT", `/staff/programs/${programId}/reviewers/`, { body: { reviewerIds } }),
  staff: () => call<PageOf<User>>("GET", "/staff/users/?active=true&limit=100"),
  /** Every reason, in use and off: the API lists one or the other (`active=false`). */
  reasons: async (): Promise<ApiAnswer<{ results: Reason[] }>> => {
    const [inUse, off] = await Promise.all([
      call<{ results: Reason[] }>("GET", "/reasons/"),
      call<{ results: Reason[] }>("GET", "/reasons/?active=false"),
    ]);
    if (!inUse.ok) return inUse;
    if (!off.ok) return off;
    return { ...inUse, data: { results: [...inUse.data.results, ...off.data.results] } };
  },
  createReason: (body: ReasonCreate) => call<Reason>("POST", "/reasons/", { body }),
  updateReason: (reason: Reason, body: ReasonUpdate) =>
    call<Reason>("PATCH", `/reasons/${reason.kind}/${reason.code}/`, { body }),

  desk: (query: string) => call<PageOf<DeskPayment>>("GET", `/staff/payments/${query}`),
  confirm: (id: string, body: ConfirmBody) =>
    call<Payment>("POST", `/payments/${id}/confirm/`, { body }),
  fail: (id: string, reason: string) =>
    call<Payment>("POST", `/payments/${id}/fail/`, { body: { reason } }),
  refund: (id: string, body: { amount?: number; reason: string }) =>
    call<Payment>("POST", `/payments/${id}/refunds/`, { body }),
  fee: (applicationId: string) => call<FeeSummary>("GET", `/applications/${applicationId}/fee/`),
  payments: (applicationId: string) =>
    call<PageOf<Payment>>("GET", `/applications/${applicationId}/payments/?limit=20`),
  waive: (applicationId: string, reason: string) =>
    call<FeeSummary>("POST", `/applications/${applicationId}/fee-waiver/`, { body: { reason } }),

  queue: (query: string) => call<OfficeQueuePage>("GET", `/staff/applications/${query}`),
  assign: (applicationId: string, reviewerId?: string) =>
    call<unknown>("POST", `/applications/${applicationId}/assignments/`, {
      body: reviewerId ? { reviewerId } : {},
    }),
  unassign: (applicationId: string, reviewerId: string) =>
    call<null>("DELETE", `/applications/${applicationId}/assignments/${reviewerId}/`),
  bulkAssign: (applicationIds: string[], reviewerId?: string) =>
    call<BulkAssigned>("POST", "/staff/assignments/bulk/", {
      body: reviewerId ? { applicationIds, reviewerId } : { applicationIds },
    }),
  workload: (programId?: string) =>
    call<Workload>("GET", `/staff/reviewers/workload/${queryOf({ programId })}`),
  declareConflict: (applicationId: string, reason: string) =>
    call<unknown>("POST", `/applications/${applicationId}/conflict-of-interest/`, {
      body: { reason },
    }),

  audit: (query: string) => call<PageOf<AuditEntry>>("GET", `/staff/audit/${query}`),
  verifyAudit: () => call<ChainReport>("GET", "/staff/audit/verify/"),

  webhooks: () => call<{ results: WebhookEndpoint[] }>("GET", "/webhooks/"),
  webhook: (id: string) => call<WebhookEndpoint>("GET", `/webhooks/${id}/`),
  createWebhook: (body: WebhookEndpointCreate) =>
    call<WebhookEndpointWithSecret>("POST", "/webhooks/", { body }),
  updateWebhook: (id: string, body: WebhookEndpointUpdate) =>
    call<WebhookEndpoint>("PATCH", `/webhooks/${id}/`, { body }),
  rotateSecret: (id: string) =>
    call<WebhookEndpointWithSecret>("POST", `/webhooks/${id}/rotate-secret/`, { body: {} }),
  deliveries: (id: string, offset: number) =>
    call<PageOf<WebhookDelivery>>(
      "GET",
      `/webhooks/${id}/deliveries/?limit=${OFFICE_PAGE}&offset=${offset}`,
    ),
  redeliver: (id: string, deliveryId: string) =>
    call<WebhookDelivery>("POST", `/webhooks/${id}/deliveries/${deliveryId}/redeliver/`, {
      body: {},
    }),

  dataRequests: (query: string) =>
    call<PageOf<DataRequest>>("GET", `/data-rights/requests/${query}`),
  approveErasure: (id: string) =>
    call<DataRequest>("POST", `/data-rights/requests/${id}/approve/`, { body: {} }),
  rejectErasure: (id: string, note: string) =>
    call<DataRequest>("POST", `/data-rights/requests/${id}/reject/`, { body: { note } }),

  mfa: () => call<MfaStatus>("GET", "/mfa/"),
  startTotp: () => call<TotpEnrolment>("POST", "/mfa/totp/", { body: {} }),
  confirmTotp: (code: string) =>
    call<RecoveryCodes>("POST", "/mfa/totp/confirm/", { body: { code } }),
  newRecoveryCodes: (code: string) =>
    call<RecoveryCodes>("POST", "/mfa/recovery-codes/", { body: { code } }),
  disableMfa: (password: string, code: string) =>
    call<MfaStatus>("POST", "/mfa/disable/", { body: { password, code } }),
};

/** The office's CSV of the queue's filtered set: a plain link, the session cookie is enough. */
export const queueExportUrl = (query: string) => `/api/v1/staff/applications/export/${query}`;
