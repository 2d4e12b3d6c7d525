import { API, call, rememberCsrf } from "./client.ts";
import type {
  Accepted,
  Application,
  ApplicationUpdate,
  Checklist,
  ConditionList,
  Deferral,
  Document,
  EmailVerification,
  FeeSummary,
  Interview,
  LoginResult,
  PageOf,
  Payment,
  ProgramDetail,
  ProgramListItem,
  Receipt,
  RefereeCreate,
  RefereeInvitation,
  Reference,
  ReferenceList,
  RegisterBody,
  Session,
  Transition,
  User,
} from "./types.ts";

const q = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
};

/** Downloads the browser fetches itself (GET, the session cookie): the signed PDFs, the .ics. */
export const files = {
  offerLetter: (applicationId: string) => `${API}/signed-documents/offer-letters/${applicationId}/`,
  receipt: (paymentId: string) => `${API}/signed-documents/receipts/${paymentId}/`,
  calendar: (interviewId: string) => `${API}/interviews/${interviewId}/calendar/`,
};

/** One typed function per admissions route the applicant pages use. */
export const admissions = {
  me: () => call<User>("GET", "/auth/me/"),
  async login(email: string, password: string) {
    const answer = await call<LoginResult>("POST", "/auth/login/", { body: { email, password } });
    // Only the CSRF token is kept (in memory); the bearer and refresh tokens are not wanted.
    if (answer.ok) rememberCsrf(answer.data.csrfToken);
    return answer;
  },
  async logout() {
    const answer = await call<null>("POST", "/auth/logout/");
    rememberCsrf(null);
    return answer;
  },
  /** The same answer for every address (no enumeration): what happens next arrives by email. */
  register: (body: RegisterBody) => call<Accepted>("POST", "/auth/register/", { body }),

  requestReset: (email: string) =>
    call<unknown>("POST", "/account/password-reset/", { body: { email } }),
  /** The referee's link (no account): the token goes in the body, never the URL. */
  openReference: (token: string) =>
    call<RefereeInvitation>("POST", "/references/link/", { body: { token } }),
  sendReferenceText: (token: string, text: string) =>
    call<null>("POST", "/references/link/text/", { body: { token, text } }),
  confirmReset: (token: string, newPassword: string) =>
    call<null>("POST", "/account/password-reset/confirm/", { body: { token, newPassword } }),
  changePassword: (currentPassword: string, newPassword: string) =>
    call<null>("POST", "/account/password/", { body: { currentPassword, newPassword } }),
  verification: () => call<EmailVerification>("GET", "/account/email-verification/"),
  resendVerification: () => call<unknown>("POST", "/account/email-verification/"),
  confirmVerification: (token: string) =>
    call<null>("POST", "/account/email-verification/confirm/", { body: { token } }),
  requestEmailChange: (newEmail: string, password: string) =>
    call<unknown>("POST", "/account/email-change/", { body: { newEmail, password } }),
  confirmEmailChange: (token: string) =>
    call<null>("POST", "/account/email-change/confirm/", { body: { token } }),
  sessions: () => call<PageOf<Session>>("GET", "/sessions/?limit=50"),
  endSession: (id: string) => call<null>("DELETE", `/sessions/${id}/`),
  endOtherSessions: () => call<{ ended: number }>("DELETE", "/sessions/"),

  programs: (search: string, level: string, offset: number) =>
    call<PageOf<ProgramListItem>>(
      "GET",
      `/catalog/programs/${q({ search, level, offset, limit: 12, ordering: "name" })}`,
    ),
  program: (id: string) => call<ProgramDetail>("GET", `/catalog/programs/${id}/`),

  applications: () => call<PageOf<Application>>("GET", "/applications/?limit=100"),
  application: (id: string) => call<Application>("GET", `/applications/${id}/`),
  createApplication: (intakeId: string) =>
    call<Application>("POST", "/applications/", { body: { intakeId } }),
  /** Optimistic locking: a change made from `version` only (412 when someone changed it since). */
  updateApplication: (id: string, version: number, body: ApplicationUpdate) =>
    call<Application>("PATCH", `/applications/${id}/`, {
      body,
      headers: { "if-match": `"${version}"` },
    }),
  submit: (id: string) => call<Application>("POST", `/applications/${id}/submit/`),
  withdraw: (id: string, reason: string) =>
    call<Application>("POST", `/applications/${id}/withdraw/`, {
      body: reason.trim() ? { reason } : {},
    }),
  accept: (id: string) => call<Application>("POST", `/applications/${id}/accept/`),
  decline: (id: string) => call<Application>("POST", `/applications/${id}/decline/`),
  history: (id: string) =>
    call<PageOf<Transition>>("GET", `/applications/${id}/history/?limit=100`),
  documents: (id: string) =>
    call<PageOf<Document>>("GET", `/applications/${id}/documents/?limit=100`),
  checklist: (id: string) => call<Checklist>("GET", `/applications/${id}/documents/checklist/`),
  removeDocument: (id: string, documentId: string) =>
    call<null>("DELETE", `/applications/${id}/documents/${documentId}/`),
  fee: (id: string) => call<FeeSummary>("GET", `/applications/${id}/fee/`),
  payments: (id: string) => call<PageOf<Payment>>("GET", `/applications/${id}/payments/?limit=100`),
  pay: (id: string, provider: "manual" | "stripe", idempotencyKey: string) =>
    call<Payment>("POST", `/applications/${id}/payments/`, {
      body: { provider },
      headers: { "idempotency-key": idempotencyKey },
    }),
  payment: (id: string) => call<Payment>("GET", `/payments/${id}/`),
  refreshPayment: (id: string) => call<Payment>("POST", `/payments/${id}/refresh/`),
  receipt: (id: string) => call<Receipt>("GET", `/payments/${id}/receipt/`),

  /** The applicant's own interviews (without panel or scores). */
  interviews: (applicationId: string) =>
    call<{ results: Interview[] }>("GET", `/interviews/${q({ applicationId })}`),
  confirmInterview: (id: string) => call<Interview>("POST", `/interviews/${id}/confirm/`),
  askForAnotherTime: (id: string, note: string) =>
    call<Interview>("POST", `/interviews/${id}/reschedule-request/`, {
      body: note.trim() ? { note } : {},
    }),
  conditions: (id: string) => call<ConditionList>("GET", `/applications/${id}/conditions/`),
  nameEvidence: (id: string, conditionId: string, documentId: string) =>
    call<ConditionList>("PUT", `/applications/${id}/conditions/${conditionId}/evidence/`, {
      body: { documentId },
    }),
  deferrals: (id: string) => call<{ results: Deferral[] }>("GET", `/applications/${id}/deferrals/`),
  requestDeferral: (id: string, toIntakeId: string, reason: string) =>
    call<Deferral>("POST", `/applications/${id}/deferrals/`, {
      body: reason.trim() ? { toIntakeId, reason } : { toIntakeId },
    }),

  /** The applicant's referees: statuses only, never what a referee wrote. */
  referees: (applicationId: string) =>
    call<ReferenceList>("GET", `/references/${q({ applicationId })}`),
  addReferee: (body: RefereeCreate) => call<Reference>("POST", "/references/", { body }),
  removeReferee: (referenceId: string) => call<null>("DELETE", `/references/${referenceId}/`),
};
