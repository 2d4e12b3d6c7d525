import { HttpProblem, type Logger, UNKNOWN_CLIENT } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { type Dialect, forUpdateOf, toInt } from "../../db/dialect.ts";
import { newId } from "../../lib/ids.ts";
import { notFound, problem } from "../../problems.ts";
import { isStaff, type User } from "../users/model.ts";
import { chainOnCommit, contentHash, newContentSalt } from "./internal/audit-chain.ts";
import { blinderFor } from "./internal/blind.ts";
import { moveCount } from "./internal/counts.ts";
import { assertTransition, moversFor } from "./internal/lifecycle.ts";
import { type ApplicationRow, selectApplications, toApplication } from "./internal/queries.ts";
import {
  type Actor,
  type Application,
  type ApplicationStatus,
  type AuditEvent,
  type ConditionInput,
  type DecisionInput,
  type Move,
  type MoveDeps,
  type MoveRequest,
  type Origin,
  type Precondition,
  type Seats,
  SYSTEM_ACTOR,
  type TransitionEffects,
} from "./model.ts";

/**
 * The application lifecycle, the one module every feature that moves or shows an application
 * depends on: moving an application (with its intake lock, version check, running totals and
 * history), the features' effects combined into one, seats, the audit log writer, and the
 * background pass scheduler. It imports no other feature, so none of them can pull it into a
 * cycle; features plug in through `TransitionEffects`.
 */

// The parts the features read by: the audit log's hash chain (internal/audit-chain.ts), blind
// review, the running totals, the lifecycle table (internal/lifecycle.ts), the rows.
export {
  type ChainedRow,
  chainBacklog,
  contentHash,
  GENESIS_HASH,
  rowHash,
} from "./internal/audit-chain.ts";
export {
  BLIND_NAME,
  blinderFor,
  isBlindable,
  isBlindFor,
  redactTransition,
} from "./internal/blind.ts";
export { adjustCount, countFromTotals, rebuildCounts } from "./internal/counts.ts";
export { isFinal } from "./internal/lifecycle.ts";
export {
  type ApplicationRow,
  selectApplications,
  type TransitionRow,
  toApplication,
  toTransition,
} from "./internal/queries.ts";

export type WorkflowSettings = {
  /** An offer's response deadline when the decision names none. */
  offerResponseMs: number;
  /** A condition's due date when the offer names none. */
  conditionDueMs: number;
};

export async function loadApplication(sql: SQL, id: string): Promise<Application | null> {
  const [row] = (await sql`${selectApplications(sql)} WHERE a.id = ${id}`) as ApplicationRow[];
  return row ? toApplication(row) : null;
}

/**
 * An application the viewer may see: their own, or any for staff. Anyone else gets the same
 * 404 as for an id that does not exist, so ids cannot be probed.
 */
export async function loadVisible(sql: SQL, id: string, viewer: User): Promise<Application> {
  const application = await loadApplication(sql, id);
  if (!application || (application.applicant.id !== viewer.id && !isStaff(viewer.role))) {
    throw notFound("Application");
  }
  return application;
}

/**
 * Holds the intake's row until the transaction ends (PostgreSQL; SQLite has one writer).
 * Every status change takes it first, so seat counts and waitlist positions read under it
 * cannot change before the move commits, and locks are always taken in one order: intake,
 * then application, then the running totals.
 */
export async function lockIntake(tx: SQL, dialect: Dialect, intakeId: string): Promise<void> {
  await tx`SELECT i.id FROM intakes i WHERE i.id = ${intakeId}${forUpdateOf(tx, dialect, "i")}`;
}

export async function recordTransition(
  tx: SQL,
  applicationId: string,
  from: ApplicationStatus | null,
  to: ApplicationStatus,
  origin: Origin & { reason: string | null; reasonCode?: string | null; at: string },
): Promise<void> {
  await tx`INSERT INTO application_transitions ${tx({
    id: newId(),
    application_id: applicationId,
    from_status: from,
    to_status: to,
    actor_id: origin.actor.id,
    actor_role: origin.actor.role,
    reason: origin.reason,
    reason_code: origin.reasonCode ?? null,
    client_ip: origin.clientIp,
    created_at: origin.at,
  })}`;
}

/**
 * Appends one audit entry, in the caller's transaction (a `db.transaction` handle), so the log
 * holds exactly the actions that happened; it joins the hash chain as that transaction commits
 * (internal/audit-chain.ts). Nothing deletes entries, and the database refuses every UPDATE
 * but chaining and an erasure's redaction (migrations 0004, 0006, 0012).
 */
export async function recordAudit(
  tx: SQL,
  origin: Origin,
  event: AuditEvent,
  at: string,
): Promise<void> {
  const salt = newContentSalt();
  const details = JSON.stringify(event.details ?? {});
  const entry = {
    id: newId(),
    actor_id: origin.actor.id,
    actor_role: origin.actor.role,
    action: event.action,
    application_id: event.applicationId ?? null,
    subject_type: event.subject?.type ?? null,
    subject_id: event.subject?.id ?? null,
    created_at: at,
    content_hash: contentHash(salt, details, origin.clientIp),
  };
  // Before the insert: outside a transaction this throws, and nothing is written unchained.
  chainOnCommit(tx, entry);
  await tx`INSERT INTO audit_log ${tx({
    ...entry,
    details,
    client_ip: origin.clientIp,
    content_salt: salt,
  })}`;
}

/**
 * One application as `viewer` may read it: visible to them (else 404) and blinded where its
 * program runs blind review. What a response, a letter or any other artefact tells the viewer
 * about an application starts from this, never from the stored record.
 */
export async function loadForViewer(sql: SQL, id: string, viewer: User): Promise<Application> {
  return (await blinderFor(sql, viewer))(await loadVisible(sql, id, viewer));
}

/**
 * Moves an application along the lifecycle table inside the caller's transaction, checking the
 * move, the actor's right to make it, the client's version and the effects' own rules (the
 * submission guards among them); then changes the status, the totals, the history and
 * whatever the effects add, together.
 */
export async function moveApplication(
  tx: SQL,
  deps: MoveDeps,
  origin: Origin,
  id: string,
  request: MoveRequest,
  nowMs: number,
): Promise<Application> {
  const at = new Date(nowMs).toISOString();
  const [ref] = (await tx`SELECT intake_id FROM applications WHERE id = ${id}`) as {
    intake_id: string;
  }[];
  if (!ref) throw notFound("Application");
  await lockIntake(tx, deps.dialect, ref.intake_id);
  const current =
    origin.actor.role === "system"
      ? await loadApplication(tx, id)
      : await loadVisible(tx, id, origin.actor as User);
  if (!current) throw notFound("Application");
  const from = current.status;
  assertTransition(from, request.to, moversFor(origin.actor, current.applicant.id));
  assertVersion(current.version, request.preconditions);
  const move: Move = {
    tx,
    dialect: deps.dialect,
    origin,
    before: current,
    to: request.to,
    reason: request.reason,
    reasonCode: request.reasonCode ?? null,
    decision: request.decision ?? {},
    via: request.via ?? "transition",
    batchId: request.batchId ?? null,
    at,
    nowMs,
  };
  const extra = await deps.effects.prepare(move);
  const changed = await tx`UPDATE applications SET ${tx({
    ...extra,
    status: request.to,
    version: current.version + 1,
    updated_at: at,
    ...(request.to === "submitted" ? { submitted_at: at } : {}),
  })} WHERE id = ${id} AND version = ${current.version}`;
  if (changed.count !== 1) throw lostRace();
  await recordTransition(tx, id, from, request.to, {
    ...origin,
    reason: request.reason,
    reasonCode: move.reasonCode,
    at,
  });
  await moveCount(
    tx,
    { programId: current.program.id, intakeId: current.intake.id },
    from,
    request.to,
  );
  const after = (await loadApplication(tx, id)) as Application;
  await deps.effects.settle(move, after);
  return after;
}

/**
 * Moves an application as the system when one of its deadlines has passed (an offer not
 * answered, a condition not met), in a transaction of its own. Safe with several replicas and
 * repeated passes: the move re-reads the status under the intake's lock, so an application
 * that moved meanwhile (ILLEGAL_TRANSITION, and any other refusal of the move) is left as it
 * is and `false` returned. Any other failure is thrown.
 */
export async function moveOnDeadline(
  deps: { db: Db; move: MoveDeps },
  id: string,
  to: ApplicationStatus,
  reason: string,
  nowMs: number,
): Promise<boolean> {
  try {
    await deps.db.transaction((tx) =>
      moveApplication(
        tx,
        deps.move,
        { actor: SYSTEM_ACTOR, clientIp: null },
        id,
        { to, reason, preconditions: [], via: "expiry" },
        nowMs,
      ),
    );
    return true;
  } catch (error) {
    if (error instanceof HttpProblem) return false;
    throw error;
  }
}

const ETAG = /^(?:W\/)?"(\d{1,9})"$/;

export const etagOf = (version: number): string => `"${version}"`;

/** `If-Match: "3"` (weak or strong), `*` (any version) or absent, plus the body's `version`. */
export function preconditionsOf(
  ifMatch: string | null,
  bodyVersion: number | undefined,
): Precondition[] {
  const preconditions: Precondition[] = [];
  const header = ifMatch?.trim();
  if (header && header !== "*") {
    const version = ETAG.exec(header)?.[1];
    if (version === undefined) {
      throw new HttpProblem("BAD_REQUEST", {
        detail: 'If-Match must be an ETag this API sent, e.g. "3"',
      });
    }
    preconditions.push({ version: Number(version), via: "if-match" });
  }
  if (bodyVersion !== undefined) preconditions.push({ version: bodyVersion, via: "body" });
  return preconditions;
}

/** Optimistic locking: refuses the change when the client's copy is out of date. */
export function assertVersion(current: number, preconditions: Precondition[]): void {
  for (const { version, via } of preconditions) {
    if (version === current) continue;
    const detail = `The application changed since you read it (your version ${version}, now ${current}); reload and retry`;
    throw via === "if-match"
      ? problem("PRECONDITION_FAILED", { detail, extensions: { currentVersion: current } })
      : problem("VERSION_CONFLICT", { detail, extensions: { currentVersion: current } });
  }
}

/** A concurrent writer won the race between our read and our conditional UPDATE. */
export const lostRace = () =>
  problem("VERSION_CONFLICT", {
    detail: "The application was changed by another request at the same time; reload and retry",
  });

/**
 * Several features' effects as one, prepared and settled in the order given, so the wiring
 * decides once which rule refuses first (submission guards before seat counts).
 */
export function combineEffects(...all: TransitionEffects[]): TransitionEffects {
  return {
    async prepare(move) {
      const columns: Record<string, string | number | null> = {};
      for (const effects of all) Object.assign(columns, await effects.prepare(move));
      return columns;
    },
    async settle(move, after) {
      for (const effects of all) await effects.settle(move, after);
    },
  };
}

/** The origin of a request: its actor, and its client address when known. */
export const originOf = <A extends Actor>(actor: A, clientIp: string): Origin & { actor: A } => ({
  actor,
  clientIp: clientIp === UNKNOWN_CLIENT ? null : clientIp,
});

/** The decision fields of a request body (offer deadline, conditions, waitlist position). */
export const decisionOf = (body: DecisionInput): DecisionInput => ({
  respondBy: body.respondBy,
  conditions: body.conditions,
  waitlistPosition: body.waitlistPosition,
});

/** A decision's conditions as text and optional due date, blanks dropped (either input form). */
export const normalizeConditions = (
  conditions: readonly ConditionInput[] | undefined,
): { description: string; dueAt?: string }[] =>
  (conditions ?? [])
    .map((c) =>
      typeof c === "string"
        ? { description: c.trim() }
        : { ...c, description: c.description.trim() },
    )
    .filter((c) => c.description.length > 0);

/** Statuses that hold one of the intake's seats: an outstanding offer, or a place taken. */
export const SEAT_HOLDING: ReadonlySet<ApplicationStatus> = new Set([
  "offered",
  "conditionally_offered",
  "accepted",
  "enrolled",
]);
/** Places taken: never more than the capacity, even if the capacity was lowered since. */
export const PLACE_TAKEN: ReadonlySet<ApplicationStatus> = new Set(["accepted", "enrolled"]);

/**
 * The intake's seats from the running totals (constant time). Callers that act on the answer
 * hold the intake's lock (`lockIntake`), so it cannot change before they commit.
 */
export async function seatsOf(sql: SQL, intakeId: string): Promise<Seats> {
  const [intake] = await sql`SELECT capacity FROM intakes WHERE id = ${intakeId}`;
  if (!intake) throw notFound("Intake");
  const rows = (await sql`SELECT status, total FROM application_counts
    WHERE intake_id = ${intakeId}`) as { status: ApplicationStatus; total: unknown }[];
  const sum = (set: ReadonlySet<ApplicationStatus>) =>
    rows.filter((row) => set.has(row.status)).reduce((all, row) => all + toInt(row.total), 0);
  const capacity = toInt(intake.capacity);
  const held = sum(SEAT_HOLDING);
  return {
    intakeId,
    capacity,
    held,
    taken: sum(PLACE_TAKEN),
    available: Math.max(0, capacity - held),
    waitlisted: sum(new Set<ApplicationStatus>(["waitlisted"])),
  };
}

/**
 * Runs `pass` every `intervalMs` inside the server process (a pass never overlaps the
 * previous one). Everything the passes work from is in the database, so several replicas can
 * run them side by side and a restart loses nothing. `stop` waits for the pass in progress.
 */
export function startJobs<R extends Record<string, number>>(
  pass: () => Promise<R>,
  logger: Logger,
  intervalMs: number,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      const done = await pass();
      if (Object.values(done).some((n) => n > 0)) logger.info("background pass", done);
    } catch (error) {
      logger.error("background pass failed", { err: error });
    }
    if (!stopped) timer = setTimeout(() => (running = run()), intervalMs);
  };
  running = run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
