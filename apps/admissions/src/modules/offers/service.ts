import { invalidField, type Logger } from "@platform/server";
import type { Db } from "../../db/client.ts";
import { isoAt } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import { transition } from "../applications/service.ts";
import { enqueueEmail } from "../outbox/service.ts";
import { isStaff, type User } from "../users/model.ts";
import {
  type Application,
  type ApplicationStatus,
  type MoveDeps,
  type Origin,
  SYSTEM_NOTES,
  type TransitionEffects,
} from "../workflow/model.ts";
import {
  decisionOf,
  loadApplication,
  loadVisible,
  lockIntake,
  moveApplication,
  moveOnDeadline,
  preconditionsOf,
  recordAudit,
} from "../workflow/service.ts";
import {
  becomeUnconditional,
  type ConditionSettings,
  conditionsMetAt,
  conditionsOf,
  dueDates,
  listOf,
  OPEN,
  overdue,
  SETTLED_OK,
  settleCondition,
  writeConditions,
} from "./internal/conditions.ts";
import { type DecisionSettings, decisionColumns } from "./internal/decision.ts";
import {
  approvedLetter,
  closed,
  deferralsIn,
  deferralsOf,
  findDeferral,
  insertRequest,
  laterIntake,
  movePlace,
  pendingAlready,
  refusedLetter,
  toDeferral,
} from "./internal/deferrals.ts";
import {
  assertReasonCode,
  changeReason,
  insertReason,
  type ReasonKey,
  reasonsIn,
} from "./internal/reasons.ts";
import type {
  ConditionList,
  ConditionUpdate,
  Decision,
  DecisionBody,
  Deferral,
  DeferralCreate,
  DeferralDecision,
  ReasonCreate,
  ReasonQuery,
  ReasonUpdate,
  StaffDeferral,
  StaffDeferralQuery,
} from "./model.ts";

/*
 * Offers, one feature: admins' decisions (offer, conditional offer, waitlist, reject) and the
 * rules every move passes (seats, deadlines, the waitlist), a conditional offer's conditions,
 * deferring an accepted place, and the reasons a rejection, withdrawal or decline names.
 */

export type OffersDeps = { db: Db; now: () => number; move: MoveDeps };
/** The background pass's deps: offers that expire, conditions that fall due. */
export type OfferJobsDeps = OffersDeps & { logger: Logger };

type StaffOrigin = Origin & { actor: User };

const STATUS_OF: Record<Decision, ApplicationStatus> = {
  offer: "offered",
  conditional_offer: "conditionally_offered",
  waitlist: "waitlisted",
  reject: "rejected",
};

/** An admin's decision: the move to its status, with its details (If-Match: the version). */
export const decide = (
  deps: OffersDeps,
  origin: Origin,
  applicationId: string,
  body: DecisionBody,
  ifMatch: string | null,
): Promise<Application> =>
  transition(deps, origin, applicationId, {
    to: STATUS_OF[body.decision],
    reason: body.reason ?? null,
    reasonCode: body.reasonCode ?? null,
    preconditions: preconditionsOf(ifMatch, body.version),
    decision: decisionOf(body),
    via: "decision",
  });

/**
 * The decision rules every move passes through, whichever route asked for it: seats per
 * intake (no more outstanding offers and places than the capacity, no more places taken than
 * the capacity), offer deadlines and conditions, an answer only before the deadline, and the
 * waitlist's positions.
 */
export const decisionEffects = (settings: DecisionSettings): TransitionEffects => ({
  prepare: (move) => decisionColumns(move, settings),
  settle: async () => {},
});

/**
 * Runs each due application's move on its own (as the system), through the lifecycle table:
 * safe with several replicas, as each move takes the intake's lock and re-reads the status
 * under it, so one moved meanwhile is skipped (ILLEGAL_TRANSITION) and never moved twice.
 */
async function moveEach(
  deps: OfferJobsDeps,
  ids: string[],
  to: "offer_expired" | "conditions_not_met",
  reason: string,
  nowMs: number,
  skipped: string,
): Promise<number> {
  let moved = 0;
  for (const id of ids) {
    if (await moveOnDeadline(deps, id, to, reason, nowMs)) moved++;
    else deps.logger.debug(skipped, { applicationId: id });
  }
  return moved;
}

/** Expires the offers whose deadline has passed, so the applicant is told and the seat frees. */
export async function expireDueOffers(deps: OfferJobsDeps, limit = 100): Promise<number> {
  const nowMs = deps.now();
  const due = (await deps.db.run(
    (sql) => sql`SELECT id, offer_respond_by FROM applications
      WHERE status IN ('offered', 'conditionally_offered') AND offer_respond_by <= ${isoAt(nowMs)}
      ORDER BY offer_respond_by, id LIMIT ${limit}`,
  )) as { id: string }[];
  const ids = due.map((row) => row.id);
  const reason = SYSTEM_NOTES.offerNotAnswered;
  return moveEach(
    deps,
    ids,
    "offer_expired",
    reason,
    nowMs,
    "offer not expired: it moved meanwhile",
  );
}

/** Ends the offers with a condition still pending past its due date (conditions_not_met). */
export async function settleOverdueConditions(deps: OfferJobsDeps, limit = 100): Promise<number> {
  const nowMs = deps.now();
  const ids = await overdue(deps.db, nowMs, limit);
  const reason = SYSTEM_NOTES.conditionOverdue;
  const skipped = "conditions not ended: the application moved meanwhile";
  return moveEach(deps, ids, "conditions_not_met", reason, nowMs, skipped);
}

/**
 * The conditions of a conditional offer as records: written with the offer; once all are met
 * or waived the offer cannot end for them (409 CONDITIONS_MET); when the background pass ends
 * an offer for a condition past its due date, the overdue ones are marked not met.
 */
export const conditionEffects = (settings: ConditionSettings): TransitionEffects => ({
  async prepare(move): Promise<Record<string, string | number | null>> {
    if (move.to === "conditionally_offered") dueDates(move, settings);
    if (move.to === "conditions_not_met" && (await conditionsMetAt(move.tx, move.before.id))) {
      throw problem("CONDITIONS_MET", {
        detail: "Every condition of this offer was met or waived: the offer is unconditional",
      });
    }
    return {};
  },
  async settle(move) {
    const { tx, before, at } = move;
    if (move.to === "conditionally_offered") await writeConditions(move, settings);
    if (move.to === "conditions_not_met" && move.origin.actor.role === "system") {
      await tx`UPDATE offer_conditions
        SET status = 'not_met', verified_at = ${at}, note = 'Not met by its due date'
        WHERE application_id = ${before.id} AND status = 'pending' AND due_at <= ${at}`;
    }
  },
});

/** The application's conditions: its applicant and staff; anyone else the 404 of a missing id. */
export const listConditions = (deps: OffersDeps, viewer: User, applicationId: string) =>
  deps.db.run((sql) => listOf(sql, applicationId, viewer));

/**
 * Staff settle one condition. Under the intake's lock (as every move takes it), so two admins
 * settling the last two conditions at once cannot both miss that all are met. A condition not
 * met ends the offer (conditions_not_met); the last one met or waived makes it unconditional
 * (answered or not: the applicant may still accept an unconditional offer; an accepted one is
 * confirmed).
 */
export function updateCondition(
  deps: OffersDeps,
  origin: StaffOrigin,
  applicationId: string,
  conditionId: string,
  body: ConditionUpdate,
): Promise<ConditionList> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const [ref] = await tx`SELECT intake_id FROM applications WHERE id = ${applicationId}`;
    if (!ref) throw notFound("Application");
    await lockIntake(tx, deps.move.dialect, ref.intake_id as string);
    const application = await loadVisible(tx, applicationId, origin.actor);
    const rows = await conditionsOf(tx, applicationId);
    const condition = rows.find((row) => row.id === conditionId);
    if (!condition) throw notFound("Condition");
    if (!OPEN.has(application.status) || (await conditionsMetAt(tx, applicationId))) {
      throw problem("CONDITIONS_CLOSED", {
        detail: `The offer's conditions are settled (the application is ${application.status})`,
      });
    }
    await settleCondition(tx, applicationId, condition, body, origin.actor.id, at);
    await recordAudit(
      tx,
      origin,
      {
        action: "condition.updated",
        applicationId,
        subject: { type: "condition", id: conditionId },
        details: {
          position: Number(condition.position),
          from: condition.status,
          to: body.status,
          note: body.note ?? null,
          evidenceDocumentId: body.evidenceDocumentId ?? null,
        },
      },
      at,
    );
    const statuses = rows.map((row) => (row.id === conditionId ? body.status : row.status));
    if (body.status === "not_met") {
      const request = {
        to: "conditions_not_met" as const,
        reason: `${SYSTEM_NOTES.conditionNotMet}${condition.description}`,
        preconditions: [],
        via: "conditions" as const,
      };
      await moveApplication(tx, deps.move, origin, applicationId, request, nowMs);
    } else if (statuses.every((status) => SETTLED_OK.has(status))) {
      await becomeUnconditional(tx, origin, application, nowMs);
    }
    return listOf(tx, applicationId, origin.actor);
  });
}

/**
 * The applicant names the evidence for one pending condition: a document of the same
 * application (uploaded as `condition_evidence`, or one already on file). The office then
 * settles the condition; evidence is taken only while it is pending and the offer stands.
 */
export function attachEvidence(
  deps: OffersDeps,
  applicant: User,
  applicationId: string,
  conditionId: string,
  documentId: string,
): Promise<ConditionList> {
  return deps.db.transaction(async (tx) => {
    const application = await loadVisible(tx, applicationId, applicant);
    const condition = (await conditionsOf(tx, applicationId)).find((row) => row.id === conditionId);
    if (!condition) throw notFound("Condition");
    if (!OPEN.has(application.status) || (await conditionsMetAt(tx, applicationId))) {
      throw problem("CONDITIONS_CLOSED", {
        detail: `The offer's conditions are settled (the application is ${application.status})`,
      });
    }
    if (condition.status !== "pending") {
      throw problem("CONDITION_SETTLED", {
        detail: `This condition is already ${condition.status}`,
        extensions: { status: condition.status },
      });
    }
    const [document] = await tx`SELECT id FROM documents
      WHERE id = ${documentId} AND application_id = ${applicationId}`;
    if (!document) {
      throw invalidField("/body/documentId", "is not a document of this application", "notFound");
    }
    await tx`UPDATE offer_conditions SET evidence_document_id = ${documentId}
      WHERE id = ${conditionId}`;
    return listOf(tx, applicationId, applicant);
  });
}

/** An application's deferral requests: its applicant and staff. */
export const listDeferrals = (deps: OffersDeps, viewer: User, applicationId: string) =>
  deps.db.run(async (sql) => {
    await loadVisible(sql, applicationId, viewer);
    return { results: (await deferralsOf(sql, applicationId)).map(toDeferral) };
  });

/** The office's list of deferral requests across applications (admins), oldest first. */
export const listAllDeferrals = (
  deps: OffersDeps,
  query: StaffDeferralQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<StaffDeferral>> =>
  deps.db.run(async (sql) => {
    const { total, items } = await deferralsIn(sql, query.status, page);
    return toPage(requestUrl, page, total, items);
  });

/**
 * The applicant (or an admin for them) asks to move an accepted place to a later intake of the
 * same program. Staff approve or refuse it; nothing moves until then.
 */
export function requestDeferral(
  deps: OffersDeps,
  origin: Origin & { actor: User },
  applicationId: string,
  body: DeferralCreate,
): Promise<Deferral> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const application = await loadVisible(tx, applicationId, origin.actor);
    const staff = isStaff(origin.actor.role);
    if (!staff && application.applicant.id !== origin.actor.id) throw notFound("Application");
    if (application.status !== "accepted") {
      throw problem("DEFERRAL_NOT_ALLOWED", {
        detail: `Only an accepted place can be deferred (the application is ${application.status})`,
      });
    }
    const target = await laterIntake(tx, application, body.toIntakeId, nowMs);
    const open = await deferralsOf(tx, applicationId);
    if (open.some((row) => row.status === "requested")) throw pendingAlready();
    const id = await insertRequest(tx, application, target.id, body, origin.actor.id, at);
    if (staff) {
      await recordAudit(
        tx,
        origin,
        {
          action: "deferral.requested",
          applicationId,
          subject: { type: "deferral", id },
          details: { fromIntakeId: application.intake.id, toIntakeId: target.id },
        },
        at,
      );
    }
    const created = await findDeferral(tx, applicationId, id);
    if (!created) throw notFound("Deferral");
    return toDeferral(created);
  });
}

/**
 * Approves a deferral: in one transaction the place leaves the old intake and takes a seat in
 * the new one, with history, audit and the applicant's email. Both intakes are locked, in id
 * order, before the application is read, as every move locks its intake first: two deferrals
 * crossing between the same two intakes cannot deadlock, and no offer or acceptance slips past
 * the seat check.
 */
export function approveDeferral(
  deps: OffersDeps,
  origin: StaffOrigin,
  applicationId: string,
  deferralId: string,
  decision: DeferralDecision,
): Promise<Deferral> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const row = await findDeferral(tx, applicationId, deferralId);
    if (!row) throw notFound("Deferral");
    for (const intakeId of [row.from_intake_id, row.to_intake_id].sort()) {
      await lockIntake(tx, deps.move.dialect, intakeId);
    }
    const current = await findDeferral(tx, applicationId, deferralId);
    if (current?.status !== "requested") throw closed(current ?? row);
    const application = await loadApplication(tx, applicationId);
    if (!application) throw notFound("Application");
    if (application.status !== "accepted" || application.intake.id !== row.from_intake_id) {
      throw problem("DEFERRAL_NOT_ALLOWED", {
        detail: `The place is no longer an accepted one in ${row.from_term} (the application is ${application.status}); refuse the request`,
      });
    }
    await movePlace(tx, application, row, origin, at);
    await tx`UPDATE deferrals SET status = 'approved', decided_by = ${origin.actor.id},
      decided_at = ${at}, decision_note = ${decision?.note?.trim() || null}
      WHERE id = ${deferralId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "deferral.approved",
        applicationId,
        subject: { type: "deferral", id: deferralId },
        details: { fromIntakeId: row.from_intake_id, toIntakeId: row.to_intake_id },
      },
      at,
    );
    await enqueueEmail(tx, approvedLetter(application, row), at);
    return toDeferral((await findDeferral(tx, applicationId, deferralId)) ?? row);
  });
}

/** Refuses a deferral: the place stays where it is; the applicant is told. */
export function refuseDeferral(
  deps: OffersDeps,
  origin: StaffOrigin,
  applicationId: string,
  deferralId: string,
  decision: DeferralDecision,
): Promise<Deferral> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const row = await findDeferral(tx, applicationId, deferralId);
    if (!row) throw notFound("Deferral");
    const changed = await tx`UPDATE deferrals SET status = 'refused',
      decided_by = ${origin.actor.id}, decided_at = ${at},
      decision_note = ${decision?.note?.trim() || null}
      WHERE id = ${deferralId} AND status = 'requested'`;
    if (changed.count !== 1) throw closed(row);
    const application = await loadApplication(tx, applicationId);
    if (!application) throw notFound("Application");
    await recordAudit(
      tx,
      origin,
      {
        action: "deferral.refused",
        applicationId,
        subject: { type: "deferral", id: deferralId },
        details: { toIntakeId: row.to_intake_id, note: decision?.note ?? null },
      },
      at,
    );
    await enqueueEmail(tx, refusedLetter(application, row, decision?.note), at);
    return toDeferral((await findDeferral(tx, applicationId, deferralId)) ?? row);
  });
}

/** The list to pick from: everyone signed in sees the active codes; admins may ask for all. */
export function listReasons(deps: OffersDeps, viewer: User, query: ReasonQuery) {
  const active = viewer.role === "admin" ? query.active : true;
  return deps.db.run(async (sql) => ({ results: await reasonsIn(sql, query.kind, active) }));
}

export function createReason(deps: OffersDeps, origin: Origin, body: ReasonCreate) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const reason = await insertReason(tx, body, at);
    await recordAudit(
      tx,
      origin,
      {
        action: "reason.created",
        subject: { type: "reason", id: `${reason.kind}:${reason.code}` },
        details: { label: reason.label },
      },
      at,
    );
    return reason;
  });
}

/** Codes are never deleted (the history names them): relabelled or deactivated. */
export function updateReason(deps: OffersDeps, origin: Origin, key: ReasonKey, body: ReasonUpdate) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const { before, after } = await changeReason(tx, key, body, at);
    await recordAudit(
      tx,
      origin,
      {
        action: "reason.updated",
        subject: { type: "reason", id: `${key.kind}:${key.code}` },
        details: { before, after },
      },
      at,
    );
    return after;
  });
}

/** A move's `reasonCode` is checked against the list; the history keeps it beside the text. */
export const reasonEffects: TransitionEffects = {
  prepare: async (move) => {
    await assertReasonCode(move);
    return {};
  },
  settle: async () => {},
};
