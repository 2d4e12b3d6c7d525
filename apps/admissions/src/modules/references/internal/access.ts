import { HttpProblem } from "@platform/server";
import type { SQL } from "bun";
import type { Dialect } from "../../../db/dialect.ts";
import { notFound, problem } from "../../../problems.ts";
import {
  type ApplicationFacts,
  ownApplication,
  visibleApplication,
} from "../../applications/service.ts";
import type { User } from "../../users/model.ts";

/*
 * Who sees what of an application's references: its applicant sees the requests and their
 * status; admins, and reviewers assigned to it (without a declared conflict), also read the
 * content. Everyone else gets the 404 an unknown id gets, so ids cannot be probed.
 */

async function isAssignedReviewer(sql: SQL, applicationId: string, reviewerId: string) {
  const [row] = await sql`SELECT 1 AS yes FROM review_assignments ra
    WHERE ra.application_id = ${applicationId} AND ra.reviewer_id = ${reviewerId}
      AND NOT EXISTS (SELECT 1 FROM review_conflicts rc
        WHERE rc.application_id = ra.application_id AND rc.reviewer_id = ra.reviewer_id)`;
  return Boolean(row);
}

/** The application if `viewer` is staff allowed to read its references' content, else 404. */
export async function staffApplication(
  sql: SQL,
  applicationId: string,
  viewer: User,
): Promise<ApplicationFacts> {
  if (viewer.role === "applicant") throw notFound("Application");
  const facts = await visibleApplication(sql, applicationId, viewer);
  if (viewer.role === "reviewer" && !(await isAssignedReviewer(sql, applicationId, viewer.id))) {
    throw notFound("Application");
  }
  return facts;
}

/** The applicant's own application, or one staff may read the references of. */
export const readableApplication = (sql: SQL, applicationId: string, viewer: User) =>
  viewer.role === "applicant"
    ? ownApplication(sql, applicationId, viewer)
    : staffApplication(sql, applicationId, viewer);

/** Referees are added and removed while the application is a draft or submitted. */
const OPEN = new Set(["draft", "submitted"]);

/** The applicant's own application, locked, open to changes of referees (409 otherwise). */
export async function openApplication(
  tx: SQL,
  applicationId: string,
  applicant: User,
  dialect: Dialect,
): Promise<ApplicationFacts> {
  const facts = await ownApplication(tx, applicationId, applicant, { dialect });
  if (!OPEN.has(facts.status)) {
    throw problem("REFERENCES_CLOSED", {
      detail: `The application is ${facts.status}; referees can be changed while it is a draft or submitted`,
    });
  }
  return facts;
}

/**
 * A reference of an application the caller may not see answers as an unknown reference
 * would: `.catch(sameNotFound("Reference"))`.
 */
export const sameNotFound =
  (what: string) =>
  (error: unknown): never => {
    if (error instanceof HttpProblem && error.status === 404) throw notFound(what);
    throw error;
  };
