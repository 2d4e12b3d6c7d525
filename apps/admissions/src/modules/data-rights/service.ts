import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, toPage } from "../../lib/pagination.ts";
import { problem } from "../../problems.ts";
import type { User } from "../users/model.ts";
import { findUserByEmail, hashPassword } from "../users/service.ts";
import { recordAudit } from "../workflow/service.ts";
import { completeErasure, notPending, removeFiles } from "./internal/complete.ts";
import { type ActorOrigin, type DataRightsDeps, subjectOf } from "./internal/deps.ts";
import { enqueueDataRightsEmail } from "./internal/emails.ts";
import { collectExport, exportEntries } from "./internal/export.ts";
import {
  findRequest,
  insertRequest,
  reload,
  requestsPage,
  settleRequest,
} from "./internal/queries.ts";
import { zipStream } from "./internal/zip.ts";
import type { DataRequest, ErasureBody, RequestsQuery } from "./model.ts";

/*
 * An applicant's rights over their data: the export, erasure requests and their decisions, the
 * erasure itself (internal/erase.ts) and the purge of payment records once their retention
 * ends.
 */

export type { DataRightsDeps };

export const listRequests = (
  deps: DataRightsDeps,
  viewer: User,
  query: RequestsQuery,
  page: Page,
  requestUrl: string,
) =>
  deps.db.run(async (sql) => {
    const { count, results } = await requestsPage(sql, viewer, query, page);
    return toPage(requestUrl, page, count, results);
  });

export const getRequest = (deps: DataRightsDeps, viewer: User, id: string) =>
  deps.db.run(async (sql) => {
    await findRequest(sql, id, viewer);
    return reload(sql, id);
  });

/**
 * The applicant's data as a ZIP streamed to them: `data.json` and their uploaded files. The
 * download is recorded (a completed `export` request), audited and emailed first.
 */
export async function exportData(deps: DataRightsDeps, origin: ActorOrigin) {
  const user = origin.actor;
  const at = isoAt(deps.now());
  const requestId = newId();
  await deps.db.transaction(async (tx) => {
    await insertRequest(tx, {
      id: requestId,
      userId: user.id,
      kind: "export",
      status: "completed",
      reason: null,
      at,
    });
    await recordAudit(
      tx,
      origin,
      { action: "data.exported", subject: subjectOf(user.id), details: { requestId } },
      at,
    );
    await enqueueDataRightsEmail(tx, user.email, "data.exported", {
      at,
      portalUrl: deps.portalUrl,
    });
  });
  const { data, files } = await deps.db.run((sql) => collectExport(sql, user, at));
  return {
    fileName: `admissions-data-${at.slice(0, 10)}.zip`,
    body: zipStream(exportEntries(deps.storage, data, files)),
  };
}

/** Statuses in which an application is still being decided: erasure then waits for an admin. */
const IN_PROGRESS = [
  "submitted",
  "under_review",
  "interviewing",
  "offered",
  "conditionally_offered",
  "waitlisted",
  "accepted",
];

async function assertPassword(deps: DataRightsDeps, user: User, password: string) {
  const account = await findUserByEmail(deps.db, user.email);
  if (!account || !(await Bun.password.verify(password, account.passwordHash))) {
    throw problem("CONFIRMATION_FAILED", { detail: "The password is incorrect" });
  }
}

const alreadyRequested = () =>
  problem("ERASURE_ALREADY_REQUESTED", {
    detail: "An erasure request of yours is already waiting for an admin",
  });

/**
 * The applicant asks for their account to be erased (password re-entered). With no
 * application in progress it is done at once; otherwise it waits for an admin, who may
 * approve (erase) or reject it. Either way the applicant is emailed.
 */
export async function requestErasure(
  deps: DataRightsDeps,
  origin: ActorOrigin,
  body: ErasureBody,
): Promise<DataRequest> {
  const user = origin.actor;
  await assertPassword(deps, user, body.password);
  const unusable = await hashPassword(crypto.randomUUID(), deps.passwordCost);
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const id = newId();
  let storageKeys: string[] = [];
  try {
    await deps.db.transaction(async (tx) => {
      const reason = body.reason?.trim() || null;
      await insertRequest(tx, {
        id,
        userId: user.id,
        kind: "erasure",
        status: "pending",
        reason,
        at,
      });
      await recordAudit(
        tx,
        origin,
        {
          action: "data.erasure_requested",
          subject: subjectOf(user.id),
          details: { requestId: id },
        },
        at,
      );
      const [open] = await tx`SELECT count(*) AS n FROM applications
        WHERE applicant_id = ${user.id} AND status IN ${tx(IN_PROGRESS)}`;
      if (Number(open?.n ?? 0) > 0) {
        await enqueueDataRightsEmail(tx, user.email, "erasure.requested", {
          at,
          portalUrl: deps.portalUrl,
        });
        return;
      }
      storageKeys = await completeErasure(deps, tx, {
        id,
        user,
        origin,
        decidedBy: null,
        unusable,
        nowMs,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyRequested();
    throw error;
  }
  await removeFiles(deps, storageKeys);
  return deps.db.run((sql) => reload(sql, id));
}

async function pendingErasure(deps: DataRightsDeps, viewer: User, id: string) {
  const row = await deps.db.run((sql) => findRequest(sql, id, viewer));
  if (row.kind !== "erasure" || row.status !== "pending") throw notPending();
  return row;
}

/** An admin approves: the erasure runs now, open applications withdrawn by that admin. */
export async function approveErasure(deps: DataRightsDeps, origin: ActorOrigin, id: string) {
  const row = await pendingErasure(deps, origin.actor, id);
  const unusable = await hashPassword(crypto.randomUUID(), deps.passwordCost);
  const user = { id: row.user_id, email: row.user_email };
  const storageKeys = await deps.db.transaction((tx) =>
    completeErasure(deps, tx, {
      id,
      user,
      origin,
      decidedBy: origin.actor.id,
      unusable,
      nowMs: deps.now(),
    }),
  );
  await removeFiles(deps, storageKeys);
  return deps.db.run((sql) => reload(sql, id));
}

/** An admin rejects, saying why; the applicant is told. */
export async function rejectErasure(
  deps: DataRightsDeps,
  origin: ActorOrigin,
  id: string,
  note: string,
) {
  const row = await pendingErasure(deps, origin.actor, id);
  const at = isoAt(deps.now());
  await deps.db.transaction(async (tx) => {
    const done = await settleRequest(tx, id, {
      status: "rejected",
      decidedBy: origin.actor.id,
      note: note.trim(),
      at,
    });
    if (!done) throw notPending();
    await recordAudit(
      tx,
      origin,
      {
        action: "data.erasure_rejected",
        subject: subjectOf(row.user_id),
        details: { requestId: id },
      },
      at,
    );
    await enqueueDataRightsEmail(tx, row.user_email, "erasure.rejected", {
      at,
      portalUrl: deps.portalUrl,
      note: note.trim(),
    });
  });
  return deps.db.run((sql) => reload(sql, id));
}

/** The applicant changes their mind while the request waits. */
export async function cancelErasure(deps: DataRightsDeps, origin: ActorOrigin, id: string) {
  const row = await pendingErasure(deps, origin.actor, id);
  if (row.user_id !== origin.actor.id) throw notPending();
  const at = isoAt(deps.now());
  await deps.db.transaction(async (tx) => {
    if (!(await settleRequest(tx, id, { status: "cancelled", decidedBy: origin.actor.id, at }))) {
      throw notPending();
    }
    await recordAudit(
      tx,
      origin,
      {
        action: "data.erasure_cancelled",
        subject: subjectOf(row.user_id),
        details: { requestId: id },
      },
      at,
    );
    await enqueueDataRightsEmail(tx, row.user_email, "erasure.cancelled", {
      at,
      portalUrl: deps.portalUrl,
    });
  });
  return deps.db.run((sql) => reload(sql, id));
}

/**
 * The background pass's part: erased applicants' payment records whose retention period has
 * ended are deleted (refunds first), and the request marked purged. Returns how many accounts.
 */
export async function purgeExpiredPayments(db: Db, nowMs: number): Promise<number> {
  const at = isoAt(nowMs);
  const due = (await db.run(
    (sql) => sql`SELECT id, user_id FROM data_requests
      WHERE kind = 'erasure' AND status = 'completed' AND purged_at IS NULL
        AND retain_until <= ${at}
      ORDER BY retain_until LIMIT 100`,
  )) as { id: string; user_id: string }[];
  for (const request of due) {
    await db.transaction(async (tx) => {
      const paid = tx`SELECT p.id FROM payments p JOIN applications a ON a.id = p.application_id
        WHERE a.applicant_id = ${request.user_id}`;
      await tx`DELETE FROM payment_refunds WHERE payment_id IN (${paid})`;
      await tx`DELETE FROM payments WHERE id IN (${paid})`;
      await tx`UPDATE data_requests SET purged_at = ${at} WHERE id = ${request.id}`;
    });
  }
  return due.length;
}
