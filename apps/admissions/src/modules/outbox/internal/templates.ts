import type { Application, ApplicationStatus } from "../../workflow/model.ts";

export type Email = { subject: string; body: string };

/**
 * Statuses only staff see: moving an application into them tells the applicant nothing
 * (assignments and reviews never do either).
 */
const INTERNAL: ReadonlySet<ApplicationStatus> = new Set([
  "draft",
  "under_review",
  // The interview's own invitation tells the applicant (modules/interviews), with its .ics.
  "interviewing",
]);

const day = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  });

const what = (a: Application) => `${a.program.name} (${a.intake.term})`;

const LINES: Partial<Record<ApplicationStatus, (a: Application) => Email>> = {
  submitted: (a) => ({
    subject: `Application received: ${a.program.name}`,
    body: `We have received your application to ${what(a)}. We will write to you when a decision is made.`,
  }),
  offered: (a) => ({
    subject: `Offer of a place: ${a.program.name}`,
    body: `We are pleased to offer you a place on ${what(a)}.\n\nPlease accept or decline the offer before ${day(a.offer?.respondBy ?? a.updatedAt)} UTC; an offer not answered by then lapses.`,
  }),
  conditionally_offered: (a) => ({
    subject: `Conditional offer of a place: ${a.program.name}`,
    body: `We are pleased to offer you a place on ${what(a)}, on these conditions:\n\n${(a.offer?.conditions ?? []).map((c) => `- ${c}`).join("\n")}\n\nPlease accept or decline the offer before ${day(a.offer?.respondBy ?? a.updatedAt)} UTC; an offer not answered by then lapses.`,
  }),
  waitlisted: (a) => ({
    subject: `Waiting list: ${a.program.name}`,
    body: `Your application to ${what(a)} is on the waiting list${a.waitlistPosition ? ` at position ${a.waitlistPosition}` : ""}. We will write to you if a place becomes available.`,
  }),
  rejected: (a) => ({
    subject: `Your application: ${a.program.name}`,
    body: `Thank you for applying to ${what(a)}. We are sorry that we cannot offer you a place.`,
  }),
  accepted: (a) => ({
    subject: `Offer accepted: ${a.program.name}`,
    body: `You have accepted your offer for ${what(a)}.${a.offer?.conditions.length ? " Your place is confirmed once the conditions of the offer are met." : " We will be in touch about enrolment."}`,
  }),
  declined: (a) => ({
    subject: `Offer declined: ${a.program.name}`,
    body: `You have declined your offer for ${what(a)}. Thank you for letting us know.`,
  }),
  offer_expired: (a) => ({
    subject: `Offer lapsed: ${a.program.name}`,
    body: `Your offer for ${what(a)} was not answered before its deadline and has lapsed.`,
  }),
  enrolled: (a) => ({
    subject: `Enrolled: ${a.program.name}`,
    body: `You are enrolled on ${what(a)}. Welcome!`,
  }),
  conditions_not_met: (a) => ({
    subject: `Your offer: ${a.program.name}`,
    body: `The conditions of your offer for ${what(a)} were not met, so we cannot confirm your place.`,
  }),
  withdrawn: (a) => ({
    subject: `Application withdrawn: ${a.program.name}`,
    body: `Your application to ${what(a)} has been withdrawn.`,
  }),
};

/** The email telling the applicant their application is now `application.status`, if any. */
export function emailFor(application: Application): Email | null {
  if (INTERNAL.has(application.status)) return null;
  const line = LINES[application.status];
  if (!line) return null;
  const { subject, body } = line(application);
  return {
    subject,
    body: `Dear ${application.applicant.fullName},\n\n${body}\n\nApplication reference: ${application.id}\n\nAdmissions Office`,
  };
}
