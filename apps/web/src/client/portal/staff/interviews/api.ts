import type {
  Application,
  Clashes,
  Interview,
  InterviewScoreBody,
  Reschedule,
  Rubric,
  SlotCreate,
  TransitionRequest,
  User,
} from "@platform/admissions/models";
import { call } from "../../api/client.ts";
import type { PageOf } from "../../api/types.ts";

/** What the interview list is asked for (docs/admissions/interviews.md). */
export type InterviewFilter = {
  applicationId?: string;
  status?: Interview["status"];
  /** Only those whose panel the signed-in staff member sits on. */
  mine?: boolean;
  /** Only those ending after this moment (ISO): now, for the ones still to come. */
  from?: string;
};

const query = (filter: InterviewFilter) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== false) params.set(key, String(value));
  }
  return params.toString();
};

/** One typed function per interview route the staff pages use. */
export const interviewsApi = {
  list: (filter: InterviewFilter) =>
    call<{ results: Interview[] }>("GET", `/interviews/?${query(filter)}`),
  get: (id: string) => call<Interview>("GET", `/interviews/${id}/`),
  create: (body: SlotCreate) => call<Interview>("POST", "/interviews/", { body }),
  /** Who of the panel is busy then: asked while the form is filled, booking nothing. */
  clashes: (
    slot: { startsAt: string; durationMinutes: number; panel: string[] },
    exceptId?: string,
  ) =>
    call<Clashes>(
      "GET",
      `/interviews/clashes/?${new URLSearchParams({
        startsAt: slot.startsAt,
        durationMinutes: String(slot.durationMinutes),
        panel: slot.panel.join(","),
        ...(exceptId ? { exceptId } : {}),
      })}`,
    ),
  invite: (id: string, applicationId: string) =>
    call<Interview>("POST", `/interviews/${id}/invite/`, { body: { applicationId } }),
  reschedule: (id: string, body: Reschedule) =>
    call<Interview>("POST", `/interviews/${id}/reschedule/`, { body }),
  cancel: (id: string, note: string) =>
    call<Interview>("POST", `/interviews/${id}/cancel/`, { body: note ? { note } : {} }),
  score: (id: string, body: InterviewScoreBody) =>
    call<Interview>("PUT", `/interviews/${id}/scores/mine/`, { body }),
  /** The active staff accounts a panel is chosen from (admins; a page of 100, by name). */
  staff: () => call<PageOf<User>>("GET", "/staff/users/?active=true&limit=100"),
  application: (id: string) => call<Application>("GET", `/applications/${id}/`),
  /** The programme's rubric: its scale is the interview score's. */
  rubric: (programId: string) => call<Rubric>("GET", `/staff/programs/${programId}/rubric/`),
  /** After its interview, an application goes back to its reviewers. */
  backToReview: (application: Application) => {
    const body: TransitionRequest = { to: "under_review", version: application.version };
    return call<Application>("POST", `/applications/${application.id}/transitions/`, { body });
  },
};
