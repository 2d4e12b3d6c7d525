/*
 * The referee's emails, as plain text with the full link, listed in `links` (the outbox adds the
 * HTML alternative, where it is the only anchor: the names in these emails are the applicant's
 * to choose; once the email is delivered, the outbox strips the `?token=` from its stored copy). The link leads
 * to the portal's reference page, which posts the token to the API in a request body.
 */

/** The portal's page, after ADMISSIONS_PORTAL_URL. */
export const REFERENCE_PAGE = "/references/write";

export type RefereeEmail = { event: string; subject: string; body: string; links: string[] };

type About = {
  refereeName: string;
  applicantName: string;
  programName: string;
  term: string;
  expiresAt: string;
};

const day = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "long", timeZone: "UTC" });

const linkTo = (portalUrl: string, token: string) =>
  `${portalUrl}${REFERENCE_PAGE}?token=${encodeURIComponent(token)}`;

const letter = (name: string, ...paragraphs: string[]) =>
  `Dear ${name},\n\n${paragraphs.join("\n\n")}\n\nAdmissions Office`;

const instructions = (about: About, link: string) => [
  "You can write the reference in a form, or upload it as a PDF, here (no account needed):",
  link,
  `The link works once, until ${day(about.expiresAt)}. ${about.applicantName} will see that a reference arrived, never what it says.`,
  "If you do not know the applicant or do not wish to give a reference, you can ignore this email.",
];

export function referenceRequestEmail(
  about: About,
  portalUrl: string,
  token: string,
): RefereeEmail {
  const link = linkTo(portalUrl, token);
  return {
    event: "reference_requested",
    subject: `Reference request for ${about.applicantName}: ${about.programName}`,
    body: letter(
      about.refereeName,
      `${about.applicantName} has applied to ${about.programName} (${about.term}) and named you as a referee.`,
      ...instructions(about, link),
    ),
    links: [link],
  };
}

export function referenceReminderEmail(
  about: About,
  portalUrl: string,
  token: string,
): RefereeEmail {
  const link = linkTo(portalUrl, token);
  return {
    event: "reference_reminder",
    subject: `Reminder: reference for ${about.applicantName}: ${about.programName}`,
    body: letter(
      about.refereeName,
      `A reminder: ${about.applicantName} has applied to ${about.programName} (${about.term}) and named you as a referee. We have not received your reference yet.`,
      ...instructions(about, link),
      "This email carries a new link; the one in our earlier email no longer works.",
    ),
    links: [link],
  };
}
