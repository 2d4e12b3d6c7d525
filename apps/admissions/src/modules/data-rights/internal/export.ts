import type { SQL } from "bun";
import { toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { verifiedStream } from "../../../lib/files/checksum.ts";
import type { DocumentStorage } from "../../../lib/files/storage.ts";
import { profileRecords } from "../../profile/service.ts";
import type { User } from "../../users/model.ts";
import type { Application, Transition } from "../../workflow/model.ts";
import { loadApplication, type TransitionRow, toTransition } from "../../workflow/service.ts";
import type { DataRequest } from "../model.ts";
import { type RequestRow, toRequest } from "./queries.ts";
import type { ZipEntry } from "./zip.ts";

/** A file of the applicant's to put in the archive: its path there and where it is stored. */
export type ExportFile = { path: string; storageKey: string; sha256: string };

type DocumentRow = {
  id: string;
  application_id: string;
  type: string;
  status: string;
  file_name: string;
  media_type: string;
  size_bytes: unknown;
  sha256: string;
  storage_key: string;
  review_note: string | null;
  reviewed_at: unknown;
  created_at: unknown;
};

/** Keeps a stored file name from leaving its folder or confusing an unzip tool. */
const safeName = (name: string) =>
  name
    .replace(/[\p{Cc}/\\:*?"<>|]/gu, "_")
    .replace(/^\.+/, "_")
    .slice(0, 120) || "file";

/**
 * Everything held about one account, as `data.json` shows it, and the files that go beside it.
 * Every query is keyed by the account's id or its applications' ids: nothing of another account
 * can come along. Staff stay anonymous (roles, not names, ids or addresses), as in the
 * applicant's own view of the history. Not included: reviewers' scores and comments (internal
 * assessment), and sign-ins (the session store keeps no per-account list; see the docs).
 */
export async function collectExport(sql: SQL, user: User, exportedAt: string) {
  const { profile, history } = await profileRecords(sql, user.id);
  const ids = (
    (await sql`SELECT id FROM applications WHERE applicant_id = ${user.id}
    ORDER BY created_at, id`) as { id: string }[]
  ).map((row) => row.id);
  const theirs = sql`SELECT id FROM applications WHERE applicant_id = ${user.id}`;

  const applications: (Application & { history: Transition[] })[] = [];
  for (const id of ids) {
    const application = (await loadApplication(sql, id)) as Application;
    const transitions = (await sql`SELECT * FROM application_transitions
      WHERE application_id = ${id} ORDER BY created_at, id`) as TransitionRow[];
    applications.push({ ...application, history: transitions.map((t) => toTransition(t, user)) });
  }

  const documentRows = (await sql`SELECT * FROM documents WHERE application_id IN (${theirs})
    ORDER BY created_at, id`) as DocumentRow[];
  const files: ExportFile[] = documentRows.map((d) => ({
    path: `files/${d.application_id}/${d.id}-${safeName(d.file_name)}`,
    storageKey: d.storage_key,
    sha256: d.sha256,
  }));
  const documents = documentRows.map((d, i) => ({
    id: d.id,
    applicationId: d.application_id,
    type: d.type,
    status: d.status,
    fileName: d.file_name,
    mediaType: d.media_type,
    size: toInt(d.size_bytes),
    sha256: d.sha256,
    uploadedAt: toIso(d.created_at),
    reviewNote: d.review_note,
    reviewedAt: toIsoOrNull(d.reviewed_at),
    file: files[i]?.path,
  }));

  return {
    data: {
      exportedAt,
      account: user,
      profile,
      profileHistory: history,
      applications,
      documents,
      payments: await paymentsOf(sql, user.id),
      feeWaivers: await feeWaiversOf(sql, theirs),
      auditEntries: await auditOf(sql, user.id, theirs),
      emails: await emailsOf(sql, user),
      interviews: await interviewsOf(sql, theirs),
      referees: await refereesOf(sql, theirs),
      signedDocuments: await signedDocumentsOf(sql, theirs),
      signIns: await signInsOf(sql, user.id),
      dataRequests: await requestsOf(sql, user.id),
    },
    files,
  };
}

async function paymentsOf(sql: SQL, userId: string) {
  const rows = await sql`SELECT p.* FROM payments p JOIN applications a ON a.id = p.application_id
    WHERE a.applicant_id = ${userId} ORDER BY p.created_at, p.id`;
  const refunds = await sql`SELECT r.* FROM payment_refunds r
    JOIN payments p ON p.id = r.payment_id JOIN applications a ON a.id = p.application_id
    WHERE a.applicant_id = ${userId} ORDER BY r.created_at, r.id`;
  return rows.map((p: Record<string, unknown>) => ({
    id: p.id,
    applicationId: p.application_id,
    provider: p.provider,
    status: p.status,
    amount: { amount: toInt(p.amount), currency: p.currency },
    amountRefunded: toInt(p.amount_refunded),
    reference: p.reference,
    receiptNumber: p.receipt_number === null ? null : toInt(p.receipt_number),
    createdAt: toIso(p.created_at),
    paidAt: toIsoOrNull(p.paid_at),
    refunds: refunds
      .filter((r: Record<string, unknown>) => r.payment_id === p.id)
      .map((r: Record<string, unknown>) => ({
        amount: toInt(r.amount),
        reason: r.reason,
        status: r.status,
        createdAt: toIso(r.created_at),
      })),
  }));
}

async function feeWaiversOf(sql: SQL, theirs: SQL.Query<unknown>) {
  const rows = await sql`SELECT * FROM fee_waivers WHERE application_id IN (${theirs})`;
  return rows.map((w: Record<string, unknown>) => ({
    applicationId: w.application_id,
    reason: w.reason,
    createdAt: toIso(w.created_at),
  }));
}

/** Entries about the account or its applications; staff appear by role only. */
async function auditOf(sql: SQL, userId: string, theirs: SQL.Query<unknown>) {
  const rows = await sql`SELECT * FROM audit_log
    WHERE actor_id = ${userId} OR subject_id = ${userId} OR application_id IN (${theirs})
    ORDER BY created_at, id`;
  return rows.map((row: Record<string, unknown>) => ({
    action: row.action,
    at: toIso(row.created_at),
    actorRole: row.actor_role,
    applicationId: row.application_id,
    subject: row.subject_type ? { type: row.subject_type, id: row.subject_id } : null,
    details: JSON.parse(String(row.details)) as unknown,
    clientIp: row.actor_id === userId ? row.client_ip : null,
  }));
}

/**
 * The emails sent TO the applicant, at any address the account has had (links were sent to
 * each). Not the others about their applications: a referee's request carries the referee's
 * single-use link (live until delivered) and a reviewer's notice is staff's.
 */
async function emailsOf(sql: SQL, user: User) {
  const rows = await sql`SELECT * FROM email_outbox
    WHERE to_address = ${user.email}
      OR to_address IN (SELECT email FROM account_tokens WHERE user_id = ${user.id})
    ORDER BY created_at, id`;
  return rows.map((row: Record<string, unknown>) => ({
    event: row.event,
    to: row.to_address,
    subject: row.subject,
    body: row.body,
    status: row.status,
    createdAt: toIso(row.created_at),
    sentAt: toIsoOrNull(row.sent_at),
  }));
}

/** The account's recorded sign-ins (auth's registry): where from, with what, when. */
async function signInsOf(sql: SQL, userId: string) {
  const rows = await sql`SELECT * FROM user_sessions WHERE user_id = ${userId}
    ORDER BY created_at, id`;
  return rows.map((row: Record<string, unknown>) => ({
    ip: row.ip,
    userAgent: row.user_agent,
    createdAt: toIso(row.created_at),
    lastUsedAt: toIso(row.last_used_at),
    expiresAt: toIso(row.expires_at),
  }));
}

async function requestsOf(sql: SQL, userId: string): Promise<DataRequest[]> {
  const rows = (await sql`SELECT r.*, u.email AS user_email, u.full_name AS user_name
    FROM data_requests r JOIN users u ON u.id = r.user_id
    WHERE r.user_id = ${userId} ORDER BY r.created_at, r.id`) as RequestRow[];
  return rows.map(toRequest);
}

/** Their interviews as they see them: times, place or link, status; not the panel or scores. */
async function interviewsOf(sql: SQL, theirs: SQL.Query<unknown>) {
  const rows = await sql`SELECT * FROM interviews WHERE application_id IN (${theirs})
    ORDER BY starts_at, id`;
  return rows.map((row: Record<string, unknown>) => ({
    applicationId: row.application_id,
    status: row.status,
    startsAt: toIso(row.starts_at),
    endsAt: toIso(row.ends_at),
    location: row.location,
    meetingUrl: row.meeting_url,
    applicantNote: row.applicant_note,
    cancelReason: row.cancel_reason,
  }));
}

/** The referees they named and where each stands; a reference itself was given in confidence. */
async function refereesOf(sql: SQL, theirs: SQL.Query<unknown>) {
  const rows = await sql`SELECT * FROM reference_requests WHERE application_id IN (${theirs})
    ORDER BY created_at, id`;
  return rows.map((row: Record<string, unknown>) => ({
    applicationId: row.application_id,
    name: row.referee_name,
    email: row.referee_email,
    relationship: row.relationship,
    status: row.status,
    receivedAt: toIsoOrNull(row.received_at),
  }));
}

/** Letters and receipts issued to them: what each is and how to check it (the PDFs download). */
async function signedDocumentsOf(sql: SQL, theirs: SQL.Query<unknown>) {
  const rows = await sql`SELECT * FROM signed_documents WHERE application_id IN (${theirs})
    ORDER BY created_at, id`;
  return rows.map((row: Record<string, unknown>) => ({
    id: row.id,
    kind: row.kind,
    applicationId: row.application_id,
    paymentId: row.payment_id,
    sha256: row.sha256,
    signature: row.signature,
    keyId: row.key_id,
    issuedAt: toIso(row.created_at),
  }));
}

/** The archive's entries: `data.json`, then each file, read from storage and checked as it goes. */
export async function* exportEntries(
  storage: DocumentStorage,
  data: unknown,
  files: ExportFile[],
): AsyncGenerator<ZipEntry> {
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
        const blob = await storage.read(file.storageKey);
        // Listed in the database but gone: the server's fault, never a silently short archive.
        if (!blob) throw new Error(`export: stored file ${file.storageKey} is missing`);
        return verifiedStream(blob.stream(), file.sha256);
      },
    };
  }
}
