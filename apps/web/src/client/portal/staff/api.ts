import { call, rememberCsrf } from "../api/client.ts";
import type { Application, Document, LoginResult, PageOf, User } from "../api/types.ts";
import type {
  ApplicationReviews,
  AuditEntry,
  BulkResult,
  BulkTransitionBody,
  DecisionBody,
  OutboxEmail,
  QueueItem,
  Review,
  ReviewBody,
  Seats,
  StaffCreate,
  Stats,
} from "./types.ts";
import { LIST_PAGE } from "./ui/usePaged.ts";

/** Rows per page of the queue; the API pages with limit/offset, the page never loads it all. */
export const QUEUE_PAGE = 20;

/** The media types the API accepts as documents: the only ones a viewer renders (ui/FileViewer.tsx). */
export const PREVIEWABLE = ["application/pdf", "image/png", "image/jpeg"] as const;

/** One typed function per admissions route the staff pages use. */
export const staffApi = {
  /** The same sign-in as applicants; staff with MFA on send the code as `otp`. */
  async login(email: string, password: string, otp?: string) {
    const body = otp ? { email, password, otp } : { email, password };
    const answer = await call<LoginResult>("POST", "/auth/login/", { body });
    // As for applicants: the CSRF token is kept in memory, the bearer tokens are dropped.
    if (answer.ok) rememberCsrf(answer.data.csrfToken);
    return answer;
  },
  /** A reviewer's own assignments awaiting a decision, oldest submission first. */
  queue: (offset: number) =>
    call<PageOf<QueueItem>>("GET", `/staff/queue/?limit=${QUEUE_PAGE}&offset=${offset}`),
  /** For admins: every application awaiting a decision, oldest submission first. */
  awaiting: (offset: number, search = "") =>
    call<PageOf<Application>>(
      "GET",
      `/applications/?status=submitted,under_review&ordering=submittedAt&limit=${QUEUE_PAGE}&offset=${offset}${search ? `&search=${encodeURIComponent(search)}` : ""}`,
    ),
  application: (id: string) => call<Application>("GET", `/applications/${id}/`),
  documents: (id: string) =>
    call<PageOf<Document>>("GET", `/applications/${id}/documents/?limit=100`),
  reviews: (id: string) => call<ApplicationReviews>("GET", `/applications/${id}/reviews/`),
  saveReview: (id: string, body: ReviewBody) =>
    call<Review>("PUT", `/applications/${id}/reviews/mine/`, { body }),
  seats: (intakeId: string) => call<Seats>("GET", `/staff/intakes/${intakeId}/seats/`),
  decide: (id: string, body: DecisionBody) =>
    call<Application>("POST", `/applications/${id}/decision/`, { body }),
  stats: () => call<Stats>("GET", "/staff/stats/"),
  audit: (offset: number) =>
    call<PageOf<AuditEntry>>("GET", `/staff/audit/?limit=${LIST_PAGE}&offset=${offset}`),
  waitlist: (intakeId: string, offset: number) =>
    call<PageOf<Application>>(
      "GET",
      `/staff/intakes/${intakeId}/waitlist/?limit=${LIST_PAGE}&offset=${offset}`,
    ),
  promote: (intakeId: string) =>
    call<Application>("POST", `/staff/intakes/${intakeId}/waitlist/promote/`, { body: {} }),
  bulk: (body: BulkTransitionBody) =>
    call<BulkResult>("POST", "/staff/applications/bulk-transitions/", { body }),
  users: (offset: number) =>
    call<PageOf<User>>("GET", `/staff/users/?limit=${LIST_PAGE}&offset=${offset}`),
  createUser: (body: StaffCreate) => call<User>("POST", "/staff/users/", { body }),
  setActive: (id: string, active: boolean) =>
    call<User>("PATCH", `/staff/users/${id}/`, { body: { active } }),
  outbox: (offset: number) =>
    call<PageOf<OutboxEmail>>("GET", `/staff/outbox/?limit=${LIST_PAGE}&offset=${offset}`),
};

/**
 * The CSV of every application (admins): a plain link, so the browser downloads it with the
 * session cookie (a GET; the API streams it and audits the export).
 */
export const EXPORT_URL = "/api/v1/staff/applications/export/";
