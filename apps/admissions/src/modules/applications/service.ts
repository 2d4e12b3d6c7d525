import { HttpProblem, invalidField } from "@platform/server";
import type { SQL } from "bun";
import { isUniqueViolation } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import type { Page } from "../../lib/pagination.ts";
import { problem } from "../../problems.ts";
import { findIntakeWithProgram } from "../catalog/service.ts";
import { profileSnapshot } from "../profile/service.ts";
import type { User } from "../users/model.ts";
import type { Application, MoveRequest, Origin, Precondition } from "../workflow/model.ts";
import {
  adjustCount,
  assertVersion,
  blinderFor,
  loadApplication,
  loadForViewer,
  loadVisible,
  lostRace,
  moveApplication,
  recordTransition,
} from "../workflow/service.ts";
import type { ApplicationsDeps } from "./internal/deps.ts";
import { assertIntakeOpen } from "./internal/guards.ts";
import { listTransitions } from "./internal/list.ts";
import type { ApplicationCreate, ApplicationUpdate } from "./model.ts";

export type { Origin } from "../workflow/model.ts";
export type { ApplicationsDeps } from "./internal/deps.ts";
// What the documents, payments and back-office features read of an application, and the
// submission checks they fill in: the module's public face for them.
export {
  type ApplicationFacts,
  findApplicationFacts,
  isClosed,
  ownApplication,
  visibleApplication,
} from "./internal/facts.ts";
export {
  type DocumentChecklist,
  type FeeLedger,
  type FeeStatus,
  type SubmissionChecks,
  submissionEffects,
} from "./internal/guards.ts";

import { recordEvent } from "../events/service.ts";

export { type Filters, filtersFor, listApplications, whereOf } from "./internal/list.ts";

const load = loadApplication;

/** One application, blinded for a reviewer where its program runs blind review. */
export const getApplication = (deps: ApplicationsDeps, viewer: User, id: string) =>
  deps.db.run((sql) => loadForViewer(sql, id, viewer));

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
      applicant_snapshot: await snapshotOf(tx, origin.actor.id),
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
    await recordTransition(tx, row.id, null, "draft", { ...origin, reason: null, at });
    await recordEvent(
      tx,
      {
        type: "application.created",
        applicationId: row.id,
        subject: { type: "application", id: row.id },
        data: { status: "draft", programId: row.program_id, intakeId: row.intake_id },
      },
      at,
    );
    await adjustCount(
      tx,
      { programId: row.program_id, intakeId: row.intake_id, status: "draft" },
      1,
    );
    return (await load(tx, row.id)) as Application;
  });
}

/** The applicant's profile, which the new application is prefilled from. */
async function snapshotOf(tx: SQL, applicantId: string | null) {
  const snapshot = applicantId ? await profileSnapshot(tx, applicantId) : null;
  return snapshot ? JSON.stringify(snapshot) : null;
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

/** One move, in its own transaction (see `moveApplication`). */
export function transition(
  deps: ApplicationsDeps,
  origin: Origin,
  id: string,
  request: MoveRequest,
): Promise<Application> {
  const nowMs = deps.now();
  return deps.db.transaction(async (tx) => {
    const moved = await moveApplication(tx, deps.move, origin, id, request, nowMs);
    return (await blinderFor(tx, origin.actor))(moved);
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
