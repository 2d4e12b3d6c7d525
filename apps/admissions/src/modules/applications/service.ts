import { HttpProblem, invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import type { Page } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import { findIntakeWithProgram } from "../catalog/intakes.ts";
import { isStaff, type User } from "../users/model.ts";
import { adjustCount, moveCount } from "./counts.ts";
import { assertIntakeOpen, assertSubmittable, type SubmissionChecks } from "./guards.ts";
import { assertTransition, moversFor } from "./lifecycle.ts";
import { listTransitions } from "./list.ts";
import type {
  Application,
  ApplicationCreate,
  ApplicationStatus,
  ApplicationUpdate,
} from "./model.ts";
import { type ApplicationRow, selectApplications, toApplication } from "./rows.ts";
import { assertVersion, lostRace, type Precondition } from "./versions.ts";

export type ApplicationsDeps = { db: Db; now: () => number; checks: SubmissionChecks };

/** Where a change came from, for the transition log. */
export type Origin = { actor: User; clientIp: string | null };

async function load(sql: SQL, id: string): Promise<Application | null> {
  const [row] = (await sql`${selectApplications(sql)} WHERE a.id = ${id}`) as ApplicationRow[];
  return row ? toApplication(row) : null;
}

/**
 * An application the viewer may see: their own, or any for staff. Anyone else gets the same
 * 404 as for an id that does not exist, so ids cannot be probed.
 */
async function loadVisible(sql: SQL, id: string, viewer: User): Promise<Application> {
  const application = await load(sql, id);
  if (!application) throw notFound("Application");
  if (application.applicant.id !== viewer.id && !isStaff(viewer.role)) {
    throw notFound("Application");
  }
  return application;
}

export const getApplication = (deps: ApplicationsDeps, viewer: User, id: string) =>
  deps.db.run((sql) => loadVisible(sql, id, viewer));

async function record(
  tx: SQL,
  applicationId: string,
  from: ApplicationStatus | null,
  to: ApplicationStatus,
  origin: Origin & { reason: string | null; at: string },
): Promise<void> {
  await tx`INSERT INTO application_transitions ${tx({
    id: newId(),
    application_id: applicationId,
    from_status: from,
    to_status: to,
    actor_id: origin.actor.id,
    actor_role: origin.actor.role,
    reason: origin.reason,
    client_ip: origin.clientIp,
    created_at: origin.at,
  })}`;
}

/** A draft for an open intake; one per applicant and intake. */
export async function createApplication(
  deps: ApplicationsDeps,
  origin: Origin,
  body: ApplicationCreate,
): Promise<Application> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const target = await findIntakeWithProgram(tx, body.intakeId, nowMs);
    if (!target) throw invalidField("/body/intakeId", "does not name an intake");
    assertIntakeOpen(target.program, target.intake, nowMs);
    const row = {
      id: newId(),
      applicant_id: origin.actor.id,
      program_id: target.program.id,
      intake_id: target.intake.id,
      status: "draft",
      version: 1,
      ...formColumns(body),
      created_at: at,
      updated_at: at,
    };
    try {
      await tx`INSERT INTO applications ${tx(row)}`;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw problem("APPLICATION_EXISTS", {
        detail: `You already have an application for ${target.program.name}, ${target.intake.term}`,
      });
    }
    await record(tx, row.id, null, "draft", { ...origin, reason: null, at });
    await adjustCount(
      tx,
      { programId: row.program_id, intakeId: row.intake_id, status: "draft" },
      1,
    );
    return (await load(tx, row.id)) as Application;
  });
}

function formColumns(form: Omit<ApplicationUpdate, "version">) {
  const columns: Record<string, string | number | null> = {};
  if (form.personalStatement !== undefined) columns.personal_statement = form.personalStatement;
  if (form.priorQualification !== undefined) {
    columns.prior_qualification = form.priorQualification.trim();
  }
  if (form.priorInstitution !== undefined) columns.prior_institution = form.priorInstitution.trim();
  if (form.graduationYear !== undefined) columns.graduation_year = form.graduationYear;
  return columns;
}

/** The applicant edits their draft; nothing is editable once submitted. */
export async function updateDraft(
  deps: ApplicationsDeps,
  actor: User,
  id: string,
  patch: ApplicationUpdate,
  preconditions: Precondition[],
): Promise<Application> {
  return deps.db.transaction(async (tx) => {
    const current = await loadVisible(tx, id, actor);
    if (current.applicant.id !== actor.id) {
      throw new HttpProblem("FORBIDDEN", {
        detail: "Only the applicant can edit an application's form",
      });
    }
    if (current.status !== "draft") {
      throw problem("APPLICATION_NOT_EDITABLE", {
        detail: `The application is ${current.status}; only drafts can be edited`,
      });
    }
    assertVersion(current.version, preconditions);
    const { version: _, ...form } = patch;
    const changed = await tx`UPDATE applications SET ${tx({
      ...formColumns(form),
      version: current.version + 1,
      updated_at: isoAt(deps.now()),
    })} WHERE id = ${id} AND version = ${current.version}`;
    if (changed.count !== 1) throw lostRace();
    return (await load(tx, id)) as Application;
  });
}

/**
 * Moves an application along the lifecycle table, checking the move, the actor's right to
 * make it, the client's version and (for submission) every submission guard; then changes the
 * status, the totals and the history together.
 */
export async function transition(
  deps: ApplicationsDeps,
  origin: Origin,
  id: string,
  change: { to: ApplicationStatus; reason: string | null; preconditions: Precondition[] },
): Promise<Application> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const current = await loadVisible(tx, id, origin.actor);
    const from = current.status;
    assertTransition(from, change.to, moversFor(origin.actor, current.applicant.id));
    assertVersion(current.version, change.preconditions);
    if (change.to === "submitted") {
      const target = await findIntakeWithProgram(tx, current.intake.id, nowMs);
      if (!target) throw notFound("Intake");
      await assertSubmittable(tx, deps.checks, { applicationId: id, ...target, nowMs });
    }
    const changed = await tx`UPDATE applications SET ${tx({
      status: change.to,
      version: current.version + 1,
      updated_at: at,
      ...(change.to === "submitted" ? { submitted_at: at } : {}),
    })} WHERE id = ${id} AND version = ${current.version}`;
    if (changed.count !== 1) throw lostRace();
    await record(tx, id, from, change.to, { ...origin, reason: change.reason, at });
    await moveCount(
      tx,
      { programId: current.program.id, intakeId: current.intake.id },
      from,
      change.to,
    );
    return (await load(tx, id)) as Application;
  });
}

/** The history of an application the viewer may see. */
export const getHistory = (
  deps: ApplicationsDeps,
  viewer: User,
  id: string,
  page: Page,
  requestUrl: string,
) =>
  deps.db.run(async (sql) => {
    await loadVisible(sql, id, viewer);
    return listTransitions(sql, id, viewer, page, requestUrl);
  });
