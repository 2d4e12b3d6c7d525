import type { Logger } from "@platform/server";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, toPage } from "../../lib/pagination.ts";
import { problem } from "../../problems.ts";
import { type DocumentStorage, verifiedStream } from "../documents/service.ts";
import type { PasswordCost, User } from "../users/model.ts";
import { findUserByEmail, hashPassword } from "../users/service.ts";
import { type MoveDeps, type Origin, SYSTEM_ACTOR } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import { enqueueDataRightsEmail } from "./internal/emails.ts";
import { eraseApplicant } from "./internal/erase.ts";
import { collectExport } from "./internal/export.ts";
import { type ZipEntry, zipStream } from "./internal/zip.ts";
import type { DataRequest, ErasureBody, RequestsQuery } from "./model.ts";
import { findRequest, insertRequest, reload, requestsPage, settleRequest } from "./queries.ts";

export { purgeExpiredPayments } from "./internal/purge.ts";

export type DataRightsDeps = {
  db: Db;
  logger: Logger;
  now: () => number;
  storage: DocumentStorage;
  move: MoveDeps;
  portalUrl: string;
  passwordCost: PasswordCost;
  /** Calendar years an erased applicant's payment records are kept. */
  retentionYears: number;
};

type ActorOrigin = Origin & { actor: User };

/** Statuses in which an application is still being decided: erasure then waits for an admin. */
const IN_PROGRESS = [
  "submitted",
  "under_review",
  "offered",
  "conditionally_offered",
  "waitlisted",
  "accepted",
];

const subjectOf = (userId: string) => ({ type: "user", id: userId });

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
  async function* entries(): AsyncGenerator<ZipEntry> {
    yield {
      name: "data.json",
      compress: true,
      open: async () => new TextEncoder().encode(JSON.stringify(data, null, 2)),
    };
    for (const file of files) {
      yield {
        name: file.path,
        compress: false,
        async open() {
          const blob = await deps.storage.read(file.storageKey);
          // Listed in the database but gone: the server's fault, never a silently short archive.
          if (!blob) throw new Error(`export: stored file ${file.storageKey} is missing`);
          return verifiedStream(blob.stream(), file.sha256);
        },
      };
    }
  }
  return { fileName: `admissions-data-${at.slice(0, 10)}.zip`, body: zipStream(entries()) };
}

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

type Completion = {
  id: string;
  user: Pick<User, "id" | "email">;
  /** Withdraws the open applications: the applicant, or the admin who approved. */
  origin: Origin;
  decidedBy: string | null;
  unusable: string;
  nowMs: number;
};

/** The erasure itself, the request completed, the audit entry and the last email. */
async function completeErasure(
  deps: DataRightsDeps,
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  c: Completion,
): Promise<string[]> {
  const at = isoAt(c.nowMs);
  const retainUntil = new Date(c.nowMs);
  retainUntil.setUTCFullYear(retainUntil.getUTCFullYear() + deps.retentionYears);
  const outcome = await eraseApplicant(tx, deps.move, {
    userId: c.user.id,
    email: c.user.email,
    unusablePasswordHash: c.unusable,
    origin: c.origin,
    at,
    nowMs: c.nowMs,
  });
  const completed = await tx`UPDATE data_requests SET ${tx({
    status: "completed",
    decided_by: c.decidedBy,
    decided_at: at,
    completed_at: at,
    retain_until: retainUntil.toISOString(),
  })} WHERE id = ${c.id} AND status = 'pending'`;
  if (completed.count !== 1) throw notPending();
  // The system carried it out (or the admin who approved): no one's address is recorded.
  const auditOrigin: Origin = c.decidedBy ? c.origin : { actor: SYSTEM_ACTOR, clientIp: null };
  await recordAudit(
    tx,
    auditOrigin,
    {
      action: "data.erasure_completed",
      subject: subjectOf(c.user.id),
      details: {
        requestId: c.id,
        applicationsWithdrawn: outcome.applicationsWithdrawn,
        documentsDeleted: outcome.documentsDeleted,
      },
    },
    at,
  );
  // To the address as it was: the one email written after the erasure, so it is kept.
  await enqueueDataRightsEmail(tx, c.user.email, "erasure.completed", {
    at,
    portalUrl: deps.portalUrl,
    retainUntil: retainUntil.toISOString(),
  });
  return outcome.storageKeys;
}

/** After the commit: a failure leaves an unreferenced file (logged), never a row without one. */
async function removeFiles(deps: DataRightsDeps, keys: string[]) {
  for (const key of keys) {
    await deps.storage.remove(key).catch((err: unknown) => {
      deps.logger.error("erased document file not removed", { storageKey: key, err });
    });
  }
}

const notPending = () =>
  problem("DATA_REQUEST_NOT_PENDING", { detail: "This request is no longer pending" });

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
