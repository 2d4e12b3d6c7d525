import { describe, expect, test } from "bun:test";
import type { Db } from "../src/db/client.ts";
import { isoAt } from "../src/lib/ids.ts";
import type { ChainReport } from "../src/modules/audit/model.ts";
import { chainAuditBacklog, verifyChain } from "../src/modules/audit/service.ts";
import {
  type ChainedRow,
  contentHash,
  GENESIS_HASH,
  recordAudit,
  rowHash,
} from "../src/modules/workflow/service.ts";
import { requestErasure } from "./data-rights-support.ts";
import { PASSWORD, setupApp, signIn, testDatabase } from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  intakeWithSeats,
} from "./workflow-support.ts";

/**
 * Most tests here make a database of their own (a tampered one is spoiled for the others);
 * on a busy PostgreSQL server creating and migrating one can take seconds.
 */
const FRESH_DATABASE_MS = 60_000;

const SYSTEM = { actor: { id: null, role: "system" as const }, clientIp: "192.0.2.7" };

/** `n` entries appended one transaction each; their ids in chain order. */
async function appendEntries(db: Db, n: number, from = 0): Promise<string[]> {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
      recordAudit(
        tx,
        SYSTEM,
        { action: "applications.exported", details: { n: from + i } },
        isoAt(Date.UTC(2026, 0, 1) + (from + i) * 1000),
      ),
    );
  }
  const rows = (await db.run(
    (sql) => sql`SELECT id FROM audit_log WHERE seq IS NOT NULL ORDER BY seq`,
  )) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Stands in for someone with full rights on the database: the append-only triggers go. */
async function dropGuards(db: Db): Promise<void> {
  await db.run(async (sql) => {
    if (db.dialect === "postgres") {
      await sql.unsafe("ALTER TABLE audit_log DISABLE TRIGGER USER");
    } else {
      await sql.unsafe("DROP TRIGGER audit_log_no_update");
      await sql.unsafe("DROP TRIGGER audit_log_no_delete");
    }
  });
}

/** A fresh database with five chained entries and its guards dropped. */
async function tamperable() {
  const { db, drop } = await testDatabase();
  const ids = await appendEntries(db, 5);
  expect((await verifyChain(db, {})).ok).toBe(true);
  await dropGuards(db);
  return { db, drop, ids };
}

const brokenAt = (report: ChainReport) => [
  report.ok,
  report.firstBroken?.id ?? null,
  report.firstBroken?.reason,
];

describe("the audit log's hash chain", () => {
  test(
    "each entry links to the one before; the head is the last; the walk says ok",
    async () => {
      const { db, drop } = await testDatabase();
      const ids = await appendEntries(db, 3);
      const rows = (await db.run(
        (sql) => sql`SELECT id, seq, prev_hash, hash FROM audit_log ORDER BY seq`,
      )) as { id: string; seq: unknown; prev_hash: string; hash: string }[];
      expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3]);
      expect(rows[0]?.prev_hash).toBe(GENESIS_HASH);
      expect(rows[1]?.prev_hash).toBe(rows[0]?.hash ?? "");
      expect(rows[2]?.prev_hash).toBe(rows[1]?.hash ?? "");
      const report = await verifyChain(db, {});
      expect(report).toEqual({
        ok: true,
        checked: 3,
        redacted: 0,
        head: { seq: 3, hash: rows[2]?.hash ?? "" },
        firstBroken: null,
      });
      expect(ids).toEqual(rows.map((row) => row.id));
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "concurrent transactions never fork it: one head, seq 1…n without gaps",
    async () => {
      const { db, drop } = await testDatabase();
      // Each transaction writes two entries and does other work between them, so on PostgreSQL
      // (a pool of 4) they really overlap; the head's row lock orders their appends.
      const writers = Array.from({ length: 24 }, (_, i) =>
        db.transaction(async (tx) => {
          await recordAudit(
            tx,
            SYSTEM,
            { action: "applications.exported", details: { i } },
            isoAt(i),
          );
          await tx`SELECT count(*) AS n FROM audit_log`;
          await recordAudit(
            tx,
            SYSTEM,
            { action: "applications.exported", details: { i, b: 1 } },
            isoAt(i),
          );
        }),
      );
      await Promise.all(writers);
      const rows = (await db.run((sql) => sql`SELECT seq, prev_hash FROM audit_log`)) as {
        seq: unknown;
        prev_hash: string;
      }[];
      expect(rows.map((row) => Number(row.seq)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 48 }, (_, i) => i + 1),
      );
      // A fork would show as two entries claiming the same predecessor.
      expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(48);
      expect(await verifyChain(db, {})).toMatchObject({ ok: true, checked: 48 });
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "an entry is chained only if its transaction commits",
    async () => {
      const { db, drop } = await testDatabase();
      await appendEntries(db, 1);
      const failed = db.transaction(async (tx) => {
        await recordAudit(tx, SYSTEM, { action: "applications.exported" }, isoAt(0));
        throw new Error("rolled back");
      });
      await expect(failed).rejects.toThrow("rolled back");
      await appendEntries(db, 1, 1);
      expect(await verifyChain(db, {})).toMatchObject({ ok: true, checked: 2 });
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "an entry written outside a transaction is refused, and nothing is written",
    async () => {
      const { db, drop } = await testDatabase();
      await expect(
        db.run((sql) => recordAudit(sql, SYSTEM, { action: "applications.exported" }, isoAt(0))),
      ).rejects.toThrow("not inside db.transaction");
      const [row] = await db.run((sql) => sql`SELECT count(*) AS n FROM audit_log`);
      expect(Number(row?.n)).toBe(0);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "the database still refuses to change or delete a chained entry",
    async () => {
      const { db, drop } = await testDatabase();
      const [id = ""] = await appendEntries(db, 1);
      for (const statement of [
        () => db.run((sql) => sql`UPDATE audit_log SET details = '{}' WHERE id = ${id}`),
        () => db.run((sql) => sql`UPDATE audit_log SET hash = ${GENESIS_HASH} WHERE id = ${id}`),
        () => db.run((sql) => sql`UPDATE audit_log SET seq = 7 WHERE id = ${id}`),
        () => db.run((sql) => sql`DELETE FROM audit_log WHERE id = ${id}`),
      ]) {
        await expect(statement()).rejects.toThrow("append-only");
      }
      await drop();
    },
    FRESH_DATABASE_MS,
  );
});

describe("verification finds where the chain was tampered with", () => {
  test(
    "details edited: content_changed at that entry",
    async () => {
      const { db, drop, ids } = await tamperable();
      await db.run(
        (sql) => sql`UPDATE audit_log SET details = '{"n":99}' WHERE id = ${ids[2] ?? ""}`,
      );
      expect(brokenAt(await verifyChain(db, {}))).toEqual([false, ids[2], "content_changed"]);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "the actor's address edited: content_changed; the action edited: row_changed",
    async () => {
      const { db, drop, ids } = await tamperable();
      await db.run(
        (sql) => sql`UPDATE audit_log SET client_ip = '10.0.0.1' WHERE id = ${ids[3] ?? ""}`,
      );
      await db.run(
        (sql) => sql`UPDATE audit_log SET action = 'mfa.disabled' WHERE id = ${ids[1] ?? ""}`,
      );
      const report = await verifyChain(db, {});
      expect(brokenAt(report)).toEqual([false, ids[1], "row_changed"]);
      expect(report.checked).toBe(1);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "an entry edited and its own hashes recomputed: the next one no longer follows it",
    async () => {
      const { db, drop, ids } = await tamperable();
      // What a forger who knows the scheme does: edit, then recompute the entry's own hashes.
      await db.run(async (sql) => {
        const [row] =
          (await sql`SELECT * FROM audit_log WHERE id = ${ids[1] ?? ""}`) as ChainedRow[];
        if (!row) throw new Error("no entry");
        const details = '{"n":99}';
        const content = contentHash(row.content_salt, details, row.client_ip);
        const hash = rowHash(row, 2, row.prev_hash ?? "", content);
        await sql`UPDATE audit_log SET details = ${details}, content_hash = ${content},
        hash = ${hash} WHERE id = ${row.id}`;
      });
      expect(brokenAt(await verifyChain(db, {}))).toEqual([false, ids[2], "link_broken"]);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "an entry deleted: missing, reported at the entry after the gap",
    async () => {
      const { db, drop, ids } = await tamperable();
      await db.run((sql) => sql`DELETE FROM audit_log WHERE id = ${ids[2] ?? ""}`);
      const report = await verifyChain(db, {});
      expect(brokenAt(report)).toEqual([false, ids[3], "missing"]);
      expect(report.firstBroken?.seq).toBe(4);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "two entries swapped: the first moved one breaks",
    async () => {
      const { db, drop, ids } = await tamperable();
      await db.run(async (sql) => {
        await sql`UPDATE audit_log SET seq = -2 WHERE id = ${ids[1] ?? ""}`;
        await sql`UPDATE audit_log SET seq = 2 WHERE id = ${ids[3] ?? ""}`;
        await sql`UPDATE audit_log SET seq = 4 WHERE id = ${ids[1] ?? ""}`;
      });
      const report = await verifyChain(db, {});
      expect(brokenAt(report)).toEqual([false, ids[3], "row_changed"]);
      expect(report.firstBroken?.seq).toBe(2);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "the last entries deleted: head_mismatch",
    async () => {
      const { db, drop, ids } = await tamperable();
      await db.run((sql) => sql`DELETE FROM audit_log WHERE id = ${ids[4] ?? ""}`);
      const report = await verifyChain(db, {});
      expect(brokenAt(report)).toEqual([false, null, "head_mismatch"]);
      expect(report).toMatchObject({ checked: 4, firstBroken: { seq: 5 } });
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "a row inserted behind the app's back stays outside the chain: unchained",
    async () => {
      const { db, drop } = await tamperable();
      await db.run(
        (sql) => sql`INSERT INTO audit_log (id, actor_role, action, details, created_at)
        VALUES ('forged', 'system', 'applications.exported', '{}', ${isoAt(0)})`,
      );
      expect(brokenAt(await verifyChain(db, {}))).toEqual([false, "forged", "unchained"]);
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "a head saved earlier anchors the check: a rewritten history no longer passes it",
    async () => {
      const { db, drop, ids } = await tamperable();
      const saved = (await verifyChain(db, {})).head;
      expect((await verifyChain(db, { anchorSeq: saved.seq, anchorHash: saved.hash })).ok).toBe(
        true,
      );
      // Rewriting the whole chain consistently (what a forger with the database could do) is
      // caught only against a head kept elsewhere.
      const report = await verifyChain(db, { anchorSeq: 3, anchorHash: "0".repeat(64) });
      expect(brokenAt(report)).toEqual([false, ids[2], "anchor_mismatch"]);
      const past = await verifyChain(db, { anchorSeq: 9, anchorHash: saved.hash });
      expect(brokenAt(past)).toEqual([false, null, "anchor_mismatch"]);
      await drop();
    },
    FRESH_DATABASE_MS,
  );
});

describe("entries from before the chain, and erasure", () => {
  test(
    "entries written before migration 0012 are chained once at start-up, oldest first",
    async () => {
      const { db, drop } = await testDatabase();
      // As 0012 finds them: no chain columns, listed in the backlog.
      await db.run(async (sql) => {
        for (const [id, at] of [
          ["legacy-b", 2_000],
          ["legacy-a", 1_000],
        ] as const) {
          await sql`INSERT INTO audit_log (id, actor_role, action, details, created_at)
          VALUES (${id}, 'system', 'applications.exported', '{}', ${isoAt(at)})`;
          await sql`INSERT INTO audit_chain_backlog (id) VALUES (${id})`;
        }
      });
      expect(brokenAt(await verifyChain(db, {}))).toEqual([true, null, undefined]);
      expect(await chainAuditBacklog(db)).toBe(2);
      expect(await chainAuditBacklog(db)).toBe(0);
      await appendEntries(db, 1);
      const order = (await db.run((sql) => sql`SELECT id FROM audit_log ORDER BY seq`)) as {
        id: string;
      }[];
      expect(order.slice(0, 2).map((row) => row.id)).toEqual(["legacy-a", "legacy-b"]);
      expect(await verifyChain(db, {})).toMatchObject({ ok: true, checked: 3 });
      await drop();
    },
    FRESH_DATABASE_MS,
  );

  test(
    "an erasure redacts entries without breaking the chain; they are counted as redacted",
    async () => {
      const ctx = await setupApp();
      const admin = await signIn(ctx, "admin");
      const reviewer = await signIn(ctx, "reviewer");
      const { intake } = await intakeWithSeats(ctx, admin);
      const { applicant, application } = await applicationUnderReview(ctx, reviewer, intake.id);
      await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
      const request = await expectJson<{ id: string }>(
        await requestErasure(ctx, applicant, PASSWORD),
        201,
      );
      await expectJson(
        await call(ctx, admin, "POST", `/api/v1/data-rights/requests/${request.id}/approve/`),
      );
      const salts = (await ctx.db.run(
        (sql) => sql`SELECT content_salt FROM audit_log WHERE redacted_at IS NOT NULL`,
      )) as { content_salt: string | null }[];
      expect(salts.length).toBeGreaterThan(1);
      expect(salts.every((row) => row.content_salt === null)).toBe(true);
      const report = await expectJson<ChainReport>(
        await call(ctx, admin, "GET", "/api/v1/staff/audit/verify/"),
      );
      expect(report).toMatchObject({ ok: true, redacted: salts.length, firstBroken: null });
    },
    FRESH_DATABASE_MS,
  );

  test(
    "the check is for admins only",
    async () => {
      const ctx = await setupApp();
      for (const role of ["reviewer", "applicant"] as const) {
        const who = await signIn(ctx, role);
        expect((await call(ctx, who, "GET", "/api/v1/staff/audit/verify/")).status).toBe(403);
      }
      const anonymous = await ctx.app.handle(
        new Request("http://localhost/api/v1/staff/audit/verify/"),
      );
      expect(anonymous.status).toBe(401);
      const admin = await signIn(ctx, "admin");
      const bad = await call(
        ctx,
        admin,
        "GET",
        "/api/v1/staff/audit/verify/?anchorSeq=1&anchorHash=xyz",
      );
      expect(bad.status).toBe(422);
    },
    FRESH_DATABASE_MS,
  );
});
