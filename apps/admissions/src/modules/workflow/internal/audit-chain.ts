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

export const rowHash = (row: ChainedRow, seq: number, prevHash: string, content: string) =>
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
    toIso(row.created_at),
    content,
  ]);

/** Entries written in a transaction and not yet chained, per transaction handle. */
const pending = new WeakMap<SQL, string[]>();

/** Chains `id` when `tx` commits (see `beforeCommit`: the head's lock is taken last). */
export function chainOnCommit(tx: SQL, id: string): void {
  const ids = pending.get(tx);
  if (ids) {
    ids.push(id);
    return;
  }
  pending.set(tx, [id]);
  beforeCommit(tx, async (handle) => {
    const queued = pending.get(handle) ?? [];
    pending.delete(handle);
    await appendToChain(handle, queued);
  });
}

/** Ids per IN list: well under either database's limit on bound parameters. */
const CHUNK = 500;

/**
 * Links `ids`, in that order, after the chain's head. The UPDATE locks the head's row until the
 * transaction ends (PostgreSQL; SQLite has one writer), so appends are serialised: a second
 * transaction waits here, then reads the head the first one left. `seq` is UNIQUE besides.
 */
export async function appendToChain(tx: SQL, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const [head] = (await tx`UPDATE audit_chain_head SET seq = seq + ${ids.length}
    WHERE id = 1 RETURNING seq, hash`) as { seq: unknown; hash: string }[];
  if (!head) throw new Error("audit_chain_head is missing (migration 0012)");
  let seq = toInt(head.seq) - ids.length;
  let prev = head.hash;
  const byId = new Map<string, ChainedRow>();
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const rows = (await tx`SELECT * FROM audit_log WHERE id IN ${tx(chunk)}`) as ChainedRow[];
    for (const row of rows) byId.set(row.id, row);
  }
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) throw new Error(`audit entry ${id} vanished before it was chained`);
    seq += 1;
    // Entries from before 0012 have no salt and no content hash: theirs is taken now.
    const content = row.content_hash ?? contentHash(row.content_salt, row.details, row.client_ip);
    const hash = rowHash(row, seq, prev, content);
    await tx`UPDATE audit_log SET seq = ${seq}, prev_hash = ${prev}, hash = ${hash},
      content_hash = ${content} WHERE id = ${id}`;
    prev = hash;
  }
  await tx`UPDATE audit_chain_head SET hash = ${prev} WHERE id = 1`;
}

/**
 * Chains the entries written before migration 0012 (listed in `audit_chain_backlog`), oldest
 * first, once; run at start-up. Returns how many it chained.
 */
export async function chainBacklog(tx: SQL): Promise<number> {
  const rows = (await tx`SELECT l.id FROM audit_log l
    JOIN audit_chain_backlog b ON b.id = l.id
    WHERE l.hash IS NULL ORDER BY l.created_at, l.id`) as { id: string }[];
  await appendToChain(
    tx,
    rows.map((row) => row.id),
  );
  await tx`DELETE FROM audit_chain_backlog`;
  return rows.length;
}
