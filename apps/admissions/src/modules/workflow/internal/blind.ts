import type { SQL } from "bun";
import { toBool } from "../../../db/dialect.ts";
import type { Application, Transition } from "../model.ts";

/*
 * Blind review (docs/admissions.md, "Blind review"): for a program that has it on, reviewers
 * do not learn who the applicant is. Admins and the applicant see everything. Redaction is
 * applied where responses are built, so the stored application is never touched.
 */

/** What stands in for the applicant's name: the same for everyone, so it tells nothing. */
export const BLIND_NAME = "Applicant (blind review)";

/** Whoever reads: an account, or the system (never blinded). */
type Viewer = { role: string };

/** Only reviewers are blinded; admins assign, decide and audit with the full record. */
export const isBlindable = (viewer: Viewer): boolean => viewer.role === "reviewer";

/** The programs whose applications the viewer sees blinded (none for admins and applicants). */
export async function blindPrograms(sql: SQL, viewer: Viewer): Promise<Set<string>> {
  if (!isBlindable(viewer)) return new Set();
  const rows = (await sql`SELECT id, blind_review FROM programs`) as {
    id: string;
    blind_review: unknown;
  }[];
  return new Set(rows.filter((row) => toBool(row.blind_review)).map((row) => row.id));
}

/** Whether the viewer sees this application blinded. */
export async function isBlindFor(
  sql: SQL,
  viewer: Viewer,
  applicationId: string,
): Promise<boolean> {
  if (!isBlindable(viewer)) return false;
  const [row] = (await sql`SELECT p.blind_review FROM applications a
    JOIN programs p ON p.id = a.program_id WHERE a.id = ${applicationId}`) as {
    blind_review: unknown;
  }[];
  return toBool(row?.blind_review);
}

/**
 * The application without what identifies its applicant: name, email, prior institution and
 * the profile snapshot (legal and preferred name, date of birth, nationality, address, phone).
 * The applicant's id stays: it is an opaque UUID that reviewers cannot look up.
 */
export const redactApplication = (application: Application): Application => ({
  ...application,
  applicant: { id: application.applicant.id, email: "", fullName: BLIND_NAME },
  priorInstitution: "",
  applicantProfile: null,
});

/**
 * A move in the history without the address the applicant made it from (an address can point
 * at a person, or at their school); staff members' moves keep theirs.
 */
export const redactTransition = (transition: Transition): Transition =>
  transition.actor.role === "applicant" ? { ...transition, clientIp: null } : transition;

/** A redactor for one viewer: it reads the blind programs once for a whole page. */
export async function blinderFor(
  sql: SQL,
  viewer: Viewer,
): Promise<(application: Application) => Application> {
  const blind = await blindPrograms(sql, viewer);
  return (application) =>
    blind.has(application.program.id) ? redactApplication(application) : application;
}
