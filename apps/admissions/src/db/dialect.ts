import type { SQL } from "bun";

/**
 * Everything that differs between SQLite and PostgreSQL lives here; the rest of the app writes
 * SQL both accept. Rows come back slightly differently (PostgreSQL: Date, boolean, bigint
 * counts as strings; SQLite: ISO text, 0/1, numbers), so readers normalise through these.
 */
export type Dialect = "sqlite" | "postgres";

export const dialectOf = (url: string | undefined): Dialect =>
  url && /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";

/** Connection settings applied once after opening. */
export async function prepareConnection(sql: SQL, dialect: Dialect): Promise<void> {
  if (dialect !== "sqlite") return;
  // WAL lets readers (e.g. `bun run seed` in another process) run beside the server; foreign
  // keys are off by default in SQLite; a busy database waits instead of failing at once; a
  // 64 MiB page cache (default 2 MiB) keeps the indexes of a large intake in memory.
  await sql.unsafe("PRAGMA journal_mode = WAL");
  await sql.unsafe("PRAGMA synchronous = NORMAL");
  await sql.unsafe("PRAGMA foreign_keys = ON");
  await sql.unsafe("PRAGMA busy_timeout = 5000");
  await sql.unsafe("PRAGMA cache_size = -65536");
}

/** Serialises migration runs of several replicas starting at once (PostgreSQL only). */
export async function lockForMigrations(tx: SQL, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
}
const MIGRATION_LOCK_KEY = 4_242_001;

/** A UNIQUE or PRIMARY KEY violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, errno } = error as Error & { code?: unknown; errno?: unknown };
  return (
    errno === "23505" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

/** TIMESTAMPTZ columns: a Date from PostgreSQL, the stored ISO text from SQLite. */
export function toIso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value;
  throw new TypeError(`expected a timestamp, got ${typeof value}`);
}

export const toIsoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : toIso(value);

/** BOOLEAN columns: true/false from PostgreSQL, 1/0 from SQLite. */
export const toBool = (value: unknown): boolean => value === true || value === 1;

/** Integers, including PostgreSQL's bigint counts, which arrive as strings. */
export const toInt = (value: unknown): number => Number(value);

/**
 * ` FOR UPDATE OF <alias>` on PostgreSQL: locks the row read until the transaction ends, so a
 * check made on it (e.g. a count) holds until the insert. SQLite runs one writer at a time and
 * has no such clause.
 */
export const forUpdateOf = (sql: SQL, dialect: Dialect, alias: string) =>
  dialect === "postgres" ? sql.unsafe(` FOR UPDATE OF ${alias}`) : sql``;

/**
 * ` FOR UPDATE SKIP LOCKED` on PostgreSQL: several replicas claiming work from one table each
 * take different rows instead of waiting for (or repeating) each other's. SQLite has one writer.
 */
export const skipLocked = (sql: SQL, dialect: Dialect) =>
  dialect === "postgres" ? sql.unsafe(" FOR UPDATE SKIP LOCKED") : sql``;
