import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { SQL } from "bun";
import { type Dialect, dialectOf, prepareConnection } from "./dialect.ts";
import { traced } from "./traced.ts";

/**
 * The database as the app uses it: `run` for statements outside a transaction, `transaction`
 * for several rows that change together. Inside a transaction use only its `tx` handle: on
 * SQLite a nested `run` would wait for the transaction that waits for it.
 */
export type Db = {
  readonly dialect: Dialect;
  run<T>(work: (sql: SQL) => Promise<T>): Promise<T>;
  transaction<T>(work: (tx: SQL) => Promise<T>): Promise<T>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseConfig = {
  /** A postgres:// URL; absent means SQLite. */
  url?: string | undefined;
  /** SQLite file (":memory:" for tests); its folder is created when missing. */
  sqliteFile: string;
  /** PostgreSQL pool size. */
  maxConnections?: number;
};

export async function openDatabase(config: DatabaseConfig): Promise<Db> {
  const dialect = dialectOf(config.url);
  if (dialect === "postgres" && config.url) {
    const sql = new SQL({ url: config.url, max: config.maxConnections ?? 10 });
    return wrap(sql, dialect, (work) => work());
  }
  if (config.sqliteFile !== ":memory:") mkdirSync(dirname(config.sqliteFile), { recursive: true });
  const sql = new SQL({ adapter: "sqlite", filename: config.sqliteFile, create: true });
  await prepareConnection(sql, dialect);
  return wrap(sql, dialect, serialized());
}

type Gate = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * SQLite here is one connection: a statement issued while another request's transaction is
 * open would silently join (and share the fate of) that transaction. Every use of the
 * connection therefore waits its turn. SQLite executes one statement at a time anyway, so this
 * costs nothing in throughput.
 */
function serialized(): Gate {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const result = tail.then(work, work);
    tail = result.catch(() => {});
    return result;
  };
}

type CommitHook = (tx: SQL) => Promise<void>;
const commitHooks = new WeakMap<SQL, Set<CommitHook>>();

/**
 * Runs `hook` once at the end of `tx`'s work, just before it commits, in the transaction. The
 * audit chain uses it to take its lock last and briefly: taken mid-transaction, that lock would
 * be held across the transaction's other locks and could deadlock with them.
 */
export function beforeCommit(tx: SQL, hook: CommitHook): void {
  const hooks = commitHooks.get(tx);
  if (!hooks) throw new Error("beforeCommit: not inside db.transaction");
  hooks.add(hook);
}

async function withCommitHooks<T>(tx: SQL, work: (tx: SQL) => Promise<T>): Promise<T> {
  const hooks = new Set<CommitHook>();
  commitHooks.set(tx, hooks);
  const result = await work(tx);
  for (const hook of hooks) await hook(tx);
  return result;
}

function wrap(sql: SQL, dialect: Dialect, gate: Gate): Db {
  return {
    dialect,
    run: (work) => gate(() => traced(dialect, "run", (note) => work(note(sql)))),
    transaction: <T>(work: (tx: SQL) => Promise<T>) =>
      gate(() =>
        traced(
          dialect,
          "transaction",
          (note) => sql.begin((tx) => withCommitHooks(note(tx), work)) as Promise<T>,
        ),
      ),
    async ping() {
      await gate(() => sql`SELECT 1 AS ok`);
    },
    async close() {
      await sql.close();
    },
  };
}
