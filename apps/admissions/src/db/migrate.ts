import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./client.ts";
import { type Dialect, lockForMigrations, toIso } from "./dialect.ts";

export const MIGRATIONS_DIR = join(import.meta.dir, "../../migrations");

export type Migration = { version: string; file: string; sql: string; checksum: string };

/**
 * `NNNN_name.sql` runs on both databases; `NNNN_name.sqlite.sql` / `NNNN_name.postgres.sql`
 * replace it on one of them where the dialects cannot share a statement.
 */
const FILE_NAME = /^(\d{4}_[a-z0-9_]+)(?:\.(sqlite|postgres))?\.sql$/;

export async function loadMigrations(dialect: Dialect, dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const chosen = new Map<string, string>();
  for (const file of readdirSync(dir).sort()) {
    const match = FILE_NAME.exec(file);
    if (!match) continue;
    const [, version = "", only] = match;
    if (only && only !== dialect) continue;
    // A dialect-specific file wins over the shared one of the same version.
    if (only || !chosen.has(version)) chosen.set(version, file);
  }
  const versions = [...chosen.keys()].sort();
  return Promise.all(
    versions.map(async (version) => {
      const file = chosen.get(version) ?? "";
      const sql = await Bun.file(join(dir, file)).text();
      return {
        version,
        file,
        sql,
        checksum: new Bun.CryptoHasher("sha256").update(sql).digest("hex"),
      };
    }),
  );
}

/**
 * Applies pending migrations in order, all in one transaction (both databases have
 * transactional DDL, so a failing file leaves nothing half-done), and records each in
 * `schema_migrations`. An applied file whose content changed since is refused: the database
 * would no longer match what the files say.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await loadMigrations(db.dialect, dir);
  await db.run(
    (sql) => sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version TEXT PRIMARY KEY,
      checksum TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL
    )`,
  );
  return db.transaction(async (tx) => {
    await lockForMigrations(tx, db.dialect);
    const rows: { version: string; checksum: string }[] =
      await tx`SELECT version, checksum FROM schema_migrations`;
    const applied = new Map(rows.map((row) => [row.version, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.file} changed after it was applied; add a new migration instead`,
          );
        }
        continue;
      }
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO schema_migrations (version, checksum, applied_at)
        VALUES (${migration.version}, ${migration.checksum}, ${toIso(new Date())})`;
      done.push(migration.version);
    }
    return done;
  });
}

/**
 * The migrations the database has not had yet, by version, without changing anything: what a
 * replica waits on while the migration Job runs (`bun run migrate --wait`). A database with no
 * `schema_migrations` table has had none.
 */
export async function pendingMigrations(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await loadMigrations(db.dialect, dir);
  let applied: Set<string>;
  try {
    const rows: { version: string }[] = await db.run(
      (sql) => sql`SELECT version FROM schema_migrations`,
    );
    applied = new Set(rows.map((row) => row.version));
  } catch {
    applied = new Set();
  }
  return migrations.map((m) => m.version).filter((version) => !applied.has(version));
}
