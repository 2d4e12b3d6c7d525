import { HttpProblem, invalidField } from "@platform/server";
import type { SQL } from "bun";
import { type Dialect, forUpdateOf, isUniqueViolation } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import type { DocumentType, Program } from "../catalog/model.ts";
import { findIntakeWithProgram } from "../catalog/service.ts";
import { recordEvent } from "../events/service.ts";
import { profileSnapshot } from "../profile/service.ts";
import { isStaff, type User } from "../users/model.ts";
import type {
  Application,
  ApplicationStatus,
  MoveRequest,
  Origin,
  Precondition,
  TransitionEffects,
} from "../workflow/model.ts";
import {
  adjustCount,
  assertVersion,
  blinderFor,
  countFromTotals,
  isFinal,
  loadApplication,
  loadForViewer,
  loadVisible,
  lostRace,
  moveApplication,
  recordTransition,
  toApplication,
} from "../workflow/service.ts";
import type { ApplicationsDeps } from "./internal/deps.ts";
import { assertIntakeOpen, assertSubmittable, type SubmissionChecks } from "./internal/guards.ts";
import {
  countMatching,
  filtersFor,
  listTransitions,
  needsScan,
  selectPage,
  whereOf,
} from "./internal/list.ts";
import type { ApplicationCreate, ApplicationListQuery, ApplicationUpdate } from "./model.ts";

export type { Origin } from "../workflow/model.ts";
export type { ApplicationsDeps } from "./internal/deps.ts";
/*
 * Applications: an applicant's drafts, their moves through the lifecycle (submit, accept,
 * decline, withdraw, any move the table allows), the list and the history; what the documents,
 * payments and back-office features read of an application, and the submission checks they
 * fill in (internal/guards.ts).
 */

// The submission checks' interfaces, which documents and payments implement.
export type {
  DocumentChecklist,
  FeeLedger,
  FeeStatus,
  SubmissionChecks,
} from "./internal/guards.ts";
/** The list's filters and its page, which the back office's queue and export read by too. */
export { type Filters, filtersFor, needsScan, selectPage, whereOf } from "./internal/list.ts";

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
    if (!target) throw invalidField("/body/intakeId", "does not name an intake", "notFound");
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

/** What the documents and payments features need to know about an application. */
export type ApplicationFacts = {
  id: string;
  applicantId: string;
  status: ApplicationStatus;
  programCode: string;
  intakeTerm: string;
  requiredDocuments: DocumentType[];
  fee: Program["applicationFee"];
};

type FactsRow = {
  id: string;
  applicant_id: string;
  status: ApplicationStatus;
  program_code: string;
  intake_term: string;
  required_documents: string;
  application_fee: number;
  currency: string;
};

/**
 * The application with its program's requirements. `lock` (inside a transaction) holds the
 * application row on PostgreSQL until the transaction ends.
 */
export async function findApplicationFacts(
  sql: SQL,
  id: string,
  lock?: { dialect: Dialect },
): Promise<ApplicationFacts | null> {
  const [row] = (await sql`SELECT a.id, a.applicant_id, a.status,
      p.code AS program_code, i.term AS intake_term,
      p.required_documents, p.application_fee, p.currency
    FROM applications a
    JOIN programs p ON p.id = a.program_id
    JOIN intakes i ON i.id = a.intake_id
    WHERE a.id = ${id}${lock ? forUpdateOf(sql, lock.dialect, "a") : sql``}`) as FactsRow[];
  if (!row) return null;
  return {
    id: row.id,
    applicantId: row.applicant_id,
    status: row.status,
    programCode: row.program_code,
    intakeTerm: row.intake_term,
    requiredDocuments: JSON.parse(row.required_documents) as DocumentType[],
    fee: { amount: Number(row.application_fee), currency: row.currency },
  };
}

/**
 * The application if `viewer` may see it (its applicant, or staff), else the same 404 as for
 * an id that does not exist, so ids cannot be probed.
 */
export async function visibleApplication(
  sql: SQL,
  id: string,
  viewer: User,
  lock?: { dialect: Dialect },
): Promise<ApplicationFacts> {
  const facts = await findApplicationFacts(sql, id, lock);
  if (!facts || (facts.applicantId !== viewer.id && !isStaff(viewer.role))) {
    throw notFound("Application");
  }
  return facts;
}

/** The applicant's own application; anyone else (staff included) gets the 404. */
export async function ownApplication(
  sql: SQL,
  id: string,
  applicant: User,
  lock?: { dialect: Dialect },
): Promise<ApplicationFacts> {
  const facts = await findApplicationFacts(sql, id, lock);
  if (!facts || facts.applicantId !== applicant.id) throw notFound("Application");
  return facts;
}

export const isClosed = (facts: ApplicationFacts) => isFinal(facts.status);

/**
 * The submission guards as the lifecycle's first effect: a move to `submitted`, whoever asks,
 * is refused before any other feature's rule runs or anything is written.
 */
export const submissionEffects = (checks: SubmissionChecks): TransitionEffects => ({
  async prepare(move) {
    if (move.to !== "submitted") return {};
    const target = await findIntakeWithProgram(move.tx, move.before.intake.id, move.nowMs);
    if (!target) throw notFound("Intake");
    await assertSubmittable(move.tx, checks, {
      applicationId: move.before.id,
      applicantId: move.before.applicant.id,
      ...target,
      nowMs: move.nowMs,
    });
    return {};
  },
  settle: async () => {},
});

/**
 * Applicants see their own applications, staff everyone's. Without a search term, staff counts
 * come from the running totals (constant time); a search or an applicant's own list counts the
 * matching rows, which a search has to scan anyway and an applicant has a handful of.
 */
export async function listApplications(
  deps: ApplicationsDeps,
  viewer: User,
  query: ApplicationListQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<Application>> {
  const filters = filtersFor(viewer, query);
  const { staff, statuses } = filters;
  return deps.db.run(async (sql) => {
    const rows = await selectPage(sql, filters, page);
    const count =
      staff && !needsScan(query)
        ? await countFromTotals(sql, {
            statuses,
            programId: query.programId,
            intakeId: query.intakeId,
          })
        : await countMatching(sql, whereOf(sql, filters));
    const blind = await blinderFor(sql, viewer);
    return toPage(
      requestUrl,
      page,
      count,
      rows.map((row) => blind(toApplication(row))),
    );
  });
}
