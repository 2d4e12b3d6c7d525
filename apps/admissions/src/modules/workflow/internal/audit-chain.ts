import type { SQL } from "bun";
import { beforeCommit } from "../../../db/client.ts";
import { toInt, toIso } from "../../../db/dialect.ts";

/*
 * The audit log as a hash chain (docs/admissions.md, "Tamper-evident audit log"). Every hash is
 * SHA-256, written as 64 lowercase hex digits, over the UTF-8 bytes of a JSON array
 * (`JSON.stringify`: no spaces, strings escaped as JSON does, `null` for absent values):
 *
 *   content_hash = SHA-256(["audit-content/v1", content_salt, details, client_ip])
 *   hash         = SHA-256(["audit/v1", seq, prev_hash, id, actor_id, actor_role, action,
 *                           application_id, subject_type, subject_id, created_at, content_hash])
 *
 * `details` is the stored JSON text as it is, `created_at` the ISO-8601 UTC time with
 * milliseconds (`2026-11-24T23:45:00.000Z`), `seq` a number (1 for the first entry) and
 * `prev_hash` the previous entry's `hash` (GENESIS for the first). The parts an erasure may
 * redact (details, client address) enter only through `content_hash`, with a random salt the
 * erasure deletes: the chain still proves who did what to which record and when, and the
 * redacted row keeps a hash of the original that nobody can test guesses against.
 */
export const GENESIS_HASH = "0".repeat(64);

export type ChainedRow = {
  id: string;
  seq: unknown;
  prev_hash: string | null;
  hash: string | null;
  actor_id: string | null;
  actor_role: string;
  action: string;
  application_id: string | null;
  subject_type: string | null;
  subject_id: string | null;
  details: string;
  client_ip: string | null;
  content_salt: string | null;
  content_hash: string | null;
  redacted_at: unknown;
  created_at: unknown;
};

const sha256 = (parts: unknown[]) =>
  new Bun.CryptoHasher("sha256").update(JSON.stringify(parts)).digest("hex");

export const contentHash = (salt: string | null, details: string, clientIp: string | null) =>
  sha256(["audit-content/v1", salt, details, clientIp]);

export const newContentSalt = () =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");

/** What the chain hashes of an entry: all but the redactable content, which is in its hash. */
export type Linkable = Pick<
  ChainedRow,
  | "id"
  | "actor_id"
  | "actor_role"
  | "action"
  | "application_id"
  | "subject_type"
  | "subject_id"
  | "created_at"
> & { content_hash: string };

/**
 * The time as `toISOString` writes it, whatever form it was stored or read back in (SQLite
 * keeps the text given, PostgreSQL hands back a Date).
 */
const canonicalTime = (value: unknown) => new Date(toIso(value)).toISOString();

export const rowHash = (
  row: Omit<Linkable, "content_hash">,
  seq: number,
  prevHash: string,
  content: string,
) =>
  sha256([
    "audit/v1",
    seq,
    prevHash,
    row.id,
    row.actor_id,
    row.actor_role,
    row.action,
    row.application_id,
    row.subject_type,
    row.subject_id,
    canonicalTime(row.created_at),
    content,
  ]);

/** Entries written in a transaction and not yet chained, per transaction handle. */
const pending = new WeakMap<SQL, Linkable[]>();

/**
 * Chains `entry` when `tx` commits (see `beforeCommit`: the head's lock is taken last). Throws
 * outside a `db.transaction`, so call it before writing the entry.
 */
export function chainOnCommit(tx: SQL, entry: Linkable): void {
  const entries = pending.get(tx);
  if (entries) {
    entries.push(entry);
    return;
  }
  beforeCommit(tx, async (handle) => {
    const queued = pending.get(handle) ?? [];
    pending.delete(handle);
    await appendToChain(handle, queued);
  });
  pending.set(tx, [entry]);
}

/**
 * Links `entries`, in that order, after the chain's head. The UPDATE locks the head's row until
 * the transaction ends (PostgreSQL; SQLite has one writer), so appends are serialised: a second
 * transaction waits here, then reads the head the first one left. `seq` is UNIQUE besides. The
 * entries are hashed from what was written, held in memory: no read-back under the lock.
 */
export async function appendToChain(tx: SQL, entries: readonly Linkable[]): Promise<void> {
  if (entries.length === 0) return;
  const [head] = (await tx`UPDATE audit_chain_head SET seq = seq + ${entries.length}
    WHERE id = 1 RETURNING seq, hash`) as { seq: unknown; hash: string }[];
  if (!head) throw new Error("audit_chain_head is missing (migration 0012)");
  let seq = toInt(head.seq) - entries.length;
  let prev = head.hash;
  for (const entry of entries) {
    seq += 1;
    const hash = rowHash(entry, seq, prev, entry.content_hash);
    await tx`UPDATE audit_log SET seq = ${seq}, prev_hash = ${prev}, hash = ${hash},
      content_hash = ${entry.content_hash} WHERE id = ${entry.id}`;
    prev = hash;
  }
  await tx`UPDATE audit_chain_head SET hash = ${prev} WHERE id = 1`;
}

/** Backlog entries read per query. */
const BACKLOG_BATCH = 1_000;

/**
 * Chains the entries written before migration 0012 (listed in `audit_chain_backlog`), oldest
 * first, once; run at start-up. They have no salt and no content hash: theirs is taken now.
 * Returns how many it chained.
 */
export async function chainBacklog(tx: SQL): Promise<number> {
  let chained = 0;
  for (;;) {
    const rows = (await tx`SELECT l.* FROM audit_log l
      JOIN audit_chain_backlog b ON b.id = l.id
      WHERE l.hash IS NULL ORDER BY l.created_at, l.id LIMIT ${BACKLOG_BATCH}`) as ChainedRow[];
    if (rows.length === 0) break;
    await appendToChain(
      tx,
      rows.map((row) => ({
        ...row,
        content_hash: row.content_hash ?? contentHash(row.content_salt, row.details, row.client_ip),
      })),
    );
    chained += rows.length;
  }
  await tx`DELETE FROM audit_chain_backlog`;
  return chained;
}
