/*
 * What the blind-review walk (blind-review.walk.test.ts) does with each operation of the
 * OpenAPI document that is not a GET a reviewer reads: every operation must be in one of these
 * lists or in the walk's own writes, and each list may name only operations there are.
 */

/**
 * Not a reviewer's at all: admins' tools (calibration, settings, staff accounts, the audit log,
 * the CSV export, the outbox, the change feed, webhooks, data-rights requests, decisions) and
 * applicants' own actions. Each is called as the reviewer, with real ids (writes with an empty
 * body: the role is checked before the body is read), and must answer 403 or 404.
 */
export const NOT_FOR_REVIEWERS = new Set([
  "GET /api/v1/profile/",
  "GET /api/v1/profile/history/",
  "PUT /api/v1/profile/",
  "PATCH /api/v1/profile/",
  "POST /api/v1/applications/",
  "PATCH /api/v1/applications/{id}/",
  "POST /api/v1/applications/{id}/payments/",
  "POST /api/v1/applications/{id}/decision/",
  "PATCH /api/v1/applications/{id}/conditions/{conditionId}/",
  "PUT /api/v1/applications/{id}/conditions/{conditionId}/evidence/",
  "POST /api/v1/reasons/",
  "PATCH /api/v1/reasons/{kind}/{code}/",
  "POST /api/v1/applications/{id}/deferrals/",
  "POST /api/v1/applications/{id}/deferrals/{deferralId}/approve/",
  "POST /api/v1/applications/{id}/deferrals/{deferralId}/refuse/",
  "GET /api/v1/staff/deferrals/",
  "POST /api/v1/interviews/",
  "GET /api/v1/interviews/clashes/",
  "POST /api/v1/interviews/{interviewId}/invite/",
  "POST /api/v1/interviews/{interviewId}/reschedule/",
  "POST /api/v1/interviews/{interviewId}/confirm/",
  "POST /api/v1/interviews/{interviewId}/reschedule-request/",
  "POST /api/v1/interviews/{interviewId}/cancel/",
  "PUT /api/v1/staff/intakes/{id}/decisions-due/",
  "POST /api/v1/staff/intakes/{id}/waitlist/promote/",
  "POST /api/v1/applications/{id}/assignments/",
  "DELETE /api/v1/applications/{id}/assignments/{reviewerId}/",
  "GET /api/v1/staff/programs/{id}/review-settings/",
  "PUT /api/v1/staff/programs/{id}/review-settings/",
  "GET /api/v1/staff/calibration/",
  "GET /api/v1/staff/calibration/ranking/",
  "GET /api/v1/staff/calibration/extra-reviews/",
  "PUT /api/v1/staff/programs/{id}/rubric/",
  "POST /api/v1/staff/users/",
  "GET /api/v1/staff/users/",
  "PATCH /api/v1/staff/users/{id}/",
  "POST /api/v1/staff/users/{id}/password-reset/",
  "PUT /api/v1/staff/programs/{id}/reviewers/",
  "GET /api/v1/staff/applications/export/",
  "GET /api/v1/staff/applications/",
  "GET /api/v1/staff/payments/",
  "POST /api/v1/staff/assignments/bulk/",
  "GET /api/v1/staff/reviewers/workload/",
  "GET /api/v1/staff/audit/",
  "GET /api/v1/staff/audit/verify/",
  "GET /api/v1/staff/outbox/",
  "GET /api/v1/events/",
  "GET /api/v1/webhooks/",
  "POST /api/v1/webhooks/",
  "GET /api/v1/webhooks/{id}/",
  "PATCH /api/v1/webhooks/{id}/",
  "DELETE /api/v1/webhooks/{id}/",
  "POST /api/v1/webhooks/{id}/rotate-secret/",
  "GET /api/v1/webhooks/{id}/deliveries/",
  "GET /api/v1/webhooks/{id}/deliveries/{deliveryId}/",
  "POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver/",
  "POST /api/v1/applications/{id}/documents/",
  "DELETE /api/v1/applications/{id}/documents/{documentId}/",
  "POST /api/v1/data-rights/export/",
  "POST /api/v1/data-rights/erasure/",
  "GET /api/v1/data-rights/requests/",
  "GET /api/v1/data-rights/requests/{id}/",
  "POST /api/v1/data-rights/requests/{id}/cancel/",
  "POST /api/v1/data-rights/requests/{id}/approve/",
  "POST /api/v1/data-rights/requests/{id}/reject/",
  "POST /api/v1/references/",
  "DELETE /api/v1/references/{referenceId}/",
]);

/**
 * The applicant's own moves. The workflow judges the move before the mover, so where the move
 * cannot be made from the status at all it answers 409 ILLEGAL_TRANSITION, and 403
 * TRANSITION_FORBIDDEN to a reviewer where it could (at least once over the cycle).
 */
export const APPLICANTS_MOVES = new Set([
  "POST /api/v1/applications/{id}/submit/",
  "POST /api/v1/applications/{id}/accept/",
  "POST /api/v1/applications/{id}/decline/",
  "POST /api/v1/applications/{id}/withdraw/",
]);

/**
 * Not called: the caller's own account and sign-in; the catalog, which staff keep (programs
 * and intakes, public facts; a reviewer's deactivation would end the cycle walked here); and
 * public forms keyed by a secret a reviewer does not hold (a referee's emailed token,
 * Stripe's signature). None answers with anything about an applicant.
 */
export const NOT_ABOUT_APPLICATIONS = new Set([
  "POST /api/v1/catalog/programs/",
  "PATCH /api/v1/catalog/programs/{id}/",
  "POST /api/v1/catalog/programs/{id}/deactivate/",
  "POST /api/v1/catalog/programs/{id}/intakes/",
  "PATCH /api/v1/catalog/intakes/{id}/",
  "POST /api/v1/auth/register/",
  "POST /api/v1/auth/login/",
  "POST /api/v1/auth/refresh/",
  "POST /api/v1/auth/logout/",
  "POST /api/v1/account/password-reset/",
  "POST /api/v1/account/password-reset/confirm/",
  "POST /api/v1/account/password/",
  "POST /api/v1/account/email-verification/",
  "POST /api/v1/account/email-verification/confirm/",
  "POST /api/v1/account/email-change/",
  "POST /api/v1/account/email-change/confirm/",
  "DELETE /api/v1/sessions/",
  "DELETE /api/v1/sessions/{id}/",
  "POST /api/v1/mfa/totp/",
  "POST /api/v1/mfa/totp/confirm/",
  "POST /api/v1/mfa/disable/",
  "POST /api/v1/mfa/recovery-codes/",
  "POST /api/v1/references/link/",
  "POST /api/v1/references/link/text/",
  "POST /api/v1/references/link/file/",
  "POST /api/v1/payments/webhooks/stripe/",
]);
