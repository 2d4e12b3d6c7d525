import type { Db } from "../../../db/client.ts";
import { toInt } from "../../../db/dialect.ts";
import { type ChainedRow, contentHash, GENESIS_HASH, rowHash } from "../../workflow/service.ts";
import type { BreakReason, ChainQuery, ChainReport } from "../model.ts";

/** Entries read per query: memory stays flat however long the log. */
export const VERIFY_BATCH = 1_000;

type Break = NonNullable<ChainReport["firstBroken"]>;
const broken = (row: ChainedRow | null, seq: number | null, reason: BreakReason, detail: string) =>
  ({ id: row?.id ?? null, seq, reason, detail }) satisfies Break;

/** What is wrong with one entry given the one before it, or null. */
function check(row: ChainedRow, seq: number, prevHash: string): Break | null {
  const actual = toInt(row.seq);
  if (actual !== seq) {
    return broken(row, actual, "missing", `entry ${seq} is missing: deleted, or moved`);
  }
  const content = row.content_hash ?? "";
  if (row.redacted_at === null || row.redacted_at === undefined) {
    if (contentHash(row.content_salt, row.details, row.client_ip) !== content) {
      return broken(row, seq, "content_changed", "details or client address changed");
    }
  }
  if (rowHash(row, seq, row.prev_hash ?? "", content) !== row.hash) {
    return broken(row, seq, "row_changed", "actor, action, subject, time or position changed");
  }
  if (row.prev_hash !== prevHash) {
    return broken(row, seq, "link_broken", "does not follow the entry before it");
  }
  return null;
}

/**
 * Walks the chain from the first entry to the head as it was when the walk began, a batch at a
 * time (each batch its own query, so SQLite's other users get their turn between them), and
 * stops at the first entry that does not hold.
 */
export async function verifyChain(db: Db, query: ChainQuery): Promise<ChainReport> {
  const [head] = (await db.run(
    (sql) => sql`SELECT seq, hash FROM audit_chain_head WHERE id = 1`,
  )) as {
    seq: unknown;
    hash: string;
  }[];
  const headSeq = toInt(head?.seq ?? 0);
  const report = (firstBroken: Break | null, checked: number, redacted: number): ChainReport => ({
    ok: firstBroken === null,
    checked,
    redacted,
    head: { seq: headSeq, hash: head?.hash ?? GENESIS_HASH },
    firstBroken,
  });
  let seq = 0;
  let prevHash = GENESIS_HASH;
  let redacted = 0;
  while (seq < headSeq) {
    const rows = (await db.run(
      (sql) => sql`SELECT * FROM audit_log WHERE seq > ${seq} AND seq <= ${headSeq}
        ORDER BY seq LIMIT ${VERIFY_BATCH}`,
    )) as ChainedRow[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const fault = check(row, seq + 1, prevHash);
      if (fault) return report(fault, seq, redacted);
      if (row.redacted_at !== null && row.redacted_at !== undefined) redacted++;
      seq += 1;
      prevHash = row.hash ?? "";
      if (query.anchorSeq === seq && query.anchorHash && query.anchorHash !== prevHash) {
        return report(
          broken(row, seq, "anchor_mismatch", "differs from the saved head"),
          seq,
          redacted,
        );
      }
    }
  }
  if (seq !== headSeq || prevHash !== (head?.hash ?? GENESIS_HASH)) {
    const detail = `the chain ends at entry ${seq}, its head says ${headSeq}`;
    return report(broken(null, seq + 1, "head_mismatch", detail), seq, redacted);
  }
  if (query.anchorSeq !== undefined && query.anchorSeq > headSeq) {
    const detail = `the saved head's entry ${query.anchorSeq} is past the chain's end`;
    return report(broken(null, query.anchorSeq, "anchor_mismatch", detail), seq, redacted);
  }
  const [stray] = (await db.run(
    (sql) => sql`SELECT * FROM audit_log WHERE hash IS NULL
      AND id NOT IN (SELECT id FROM audit_chain_backlog) ORDER BY created_at, id LIMIT 1`,
  )) as ChainedRow[];
  if (stray) {
    return report(broken(stray, null, "unchained", "an entry outside the chain"), seq, redacted);
  }
  return report(null, seq, redacted);
}
