import type { SQL } from "bun";
import { toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import type { Reference, ReferenceContent, ReferenceStatus } from "../model.ts";

/*
 * The references feature's SQL (`reference_requests`). Link tokens arrive here already hashed;
 * the statements that use a link match only a live one, so of two concurrent uses one wins.
 */

export type ReferenceRow = {
  id: string;
  application_id: string;
  referee_name: string;
  referee_email: string;
  relationship: string;
  status: ReferenceStatus;
  token_hash: string | null;
  token_expires_at: unknown;
  reminders_sent: unknown;
  last_sent_at: unknown;
  body_text: string | null;
  file_name: string | null;
  media_type: string | null;
  size_bytes: unknown;
  sha256: string | null;
  storage_key: string | null;
  received_at: unknown;
  created_by: string;
  created_at: unknown;
  updated_at: unknown;
};

export const referencePath = (id: string) => `/api/v1/references/${id}/`;

export const toReference = (row: ReferenceRow): Reference => ({
  id: row.id,
  applicationId: row.application_id,
  refereeName: row.referee_name,
  refereeEmail: row.referee_email,
  relationship: row.relationship,
  status: row.status,
  remindersSent: toInt(row.reminders_sent),
  requestedAt: toIso(row.created_at),
  lastEmailedAt: toIso(row.last_sent_at),
  receivedAt: toIsoOrNull(row.received_at),
});

export const toContent = (row: ReferenceRow): ReferenceContent => ({
  ...toReference(row),
  text: row.body_text,
  file:
    row.storage_key && row.file_name && row.sha256
      ? {
          fileName: row.file_name,
          mediaType: "application/pdf",
          size: toInt(row.size_bytes),
          sha256: row.sha256,
          downloadUrl: `${referencePath(row.id)}file/`,
        }
      : null,
});

export const insertReference = (tx: SQL, row: ReferenceRow) =>
  tx`INSERT INTO reference_requests ${tx(row)}`;

export const listReferences = (sql: SQL, applicationId: string) =>
  sql`SELECT * FROM reference_requests WHERE application_id = ${applicationId}
    ORDER BY created_at, id` as Promise<ReferenceRow[]>;

export async function findReference(sql: SQL, id: string): Promise<ReferenceRow | null> {
  const [row] = (await sql`SELECT * FROM reference_requests WHERE id = ${id}`) as ReferenceRow[];
  return row ?? null;
}

export const deleteReference = (tx: SQL, id: string) =>
  tx`DELETE FROM reference_requests WHERE id = ${id}`;

/** The request whose live link has this hash (unused, unexpired), without using it. */
export async function findByLiveToken(
  sql: SQL,
  hash: string,
  nowMs: number,
): Promise<ReferenceRow | null> {
  const [row] = (await sql`SELECT * FROM reference_requests
    WHERE token_hash = ${hash} AND received_at IS NULL
      AND token_expires_at > ${isoAt(nowMs)}`) as ReferenceRow[];
  return row ?? null;
}

export type Received =
  | { kind: "text"; text: string }
  | {
      kind: "file";
      fileName: string;
      mediaType: string;
      size: number;
      sha256: string;
      storageKey: string;
    };

/**
 * Records the reference and kills the link, in one statement that matches only a live link:
 * a second use (or a concurrent one) gets null.
 */
export async function receiveReference(
  tx: SQL,
  hash: string,
  received: Received,
  nowMs: number,
): Promise<ReferenceRow | null> {
  const at = isoAt(nowMs);
  const content =
    received.kind === "text"
      ? { body_text: received.text }
      : {
          file_name: received.fileName,
          media_type: received.mediaType,
          size_bytes: received.size,
          sha256: received.sha256,
          storage_key: received.storageKey,
        };
  const [row] = (await tx`UPDATE reference_requests SET ${tx({
    ...content,
    status: "received",
    token_hash: null,
    token_expires_at: null,
    received_at: at,
    updated_at: at,
  })} WHERE token_hash = ${hash} AND received_at IS NULL AND token_expires_at > ${at}
    RETURNING *`) as ReferenceRow[];
  return row ?? null;
}

export type DueReminder = ReferenceRow & {
  applicant_name: string;
  program_name: string;
  term: string;
};

/** Requests not answered whose last email is at least `intervalMs` old, oldest first. */
export const dueReminders = (
  sql: SQL,
  lastSentBefore: string,
  maxReminders: number,
  openStatuses: readonly string[],
  limit: number,
) =>
  sql`SELECT r.*, u.full_name AS applicant_name,
      p.name AS program_name, i.term
    FROM reference_requests r
    JOIN applications a ON a.id = r.application_id
    JOIN users u ON u.id = a.applicant_id
    JOIN programs p ON p.id = a.program_id
    JOIN intakes i ON i.id = a.intake_id
    WHERE r.received_at IS NULL AND r.reminders_sent < ${maxReminders}
      AND r.last_sent_at <= ${lastSentBefore} AND a.status IN ${sql(openStatuses)}
    ORDER BY r.last_sent_at, r.id LIMIT ${limit}` as Promise<DueReminder[]>;

/**
 * Claims one reminder: a new link replaces the old one, counted, in one statement that only
 * matches while the count is still `seen` and nothing was received. Another pass or replica
 * that read the same row claims nothing, so a referee gets one reminder per interval.
 */
export async function claimReminder(
  tx: SQL,
  id: string,
  seen: number,
  link: { hash: string; expiresAt: string },
  at: string,
): Promise<boolean> {
  const claimed = await tx`UPDATE reference_requests SET ${tx({
    status: "reminded",
    token_hash: link.hash,
    token_expires_at: link.expiresAt,
    reminders_sent: seen + 1,
    last_sent_at: at,
    updated_at: at,
  })} WHERE id = ${id} AND reminders_sent = ${seen} AND received_at IS NULL RETURNING id`;
  return claimed.length === 1;
}

/** What the referee's page shows, by the request. */
export async function invitationFacts(sql: SQL, applicationId: string) {
  const [row] = (await sql`SELECT a.status, u.full_name, p.name AS program_name, i.term
    FROM applications a
    JOIN users u ON u.id = a.applicant_id
    JOIN programs p ON p.id = a.program_id
    JOIN intakes i ON i.id = a.intake_id
    WHERE a.id = ${applicationId}`) as {
    status: string;
    full_name: string;
    program_name: string;
    term: string;
  }[];
  return row ?? null;
}
