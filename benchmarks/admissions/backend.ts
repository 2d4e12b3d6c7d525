/**
 * What the admissions benchmarks share: a fresh database to run against (a temporary SQLite
 * file, or a new PostgreSQL database on the given server, dropped after), and percentiles.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { openDatabase } from "../../apps/admissions/src/db/client.ts";

/** `backend` is "sqlite" or "postgres" (then on `postgresUrl`); `name` prefixes what is made. */
/** The command-line options every admissions benchmark takes (node:util parseArgs). */
export const BACKEND_OPTIONS = {
  requests: { type: "string", default: "2000" },
  backends: { type: "string", default: "sqlite,postgres" },
  postgres: {
    type: "string",
    default:
      process.env.BENCH_DATABASE_URL ?? "postgres://platform:platform@127.0.0.1:5432/platform",
  },
} as const;

export async function openBackend(backend: string, postgresUrl: string, name: string) {
  if (backend === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `${name.replaceAll("_", "-")}-`));
    const db = await openDatabase({ sqliteFile: join(dir, "bench.sqlite") });
    return { db, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = new SQL(postgresUrl);
  const database = `${name}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await admin.unsafe(`CREATE DATABASE ${database}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  const db = await openDatabase({ url: url.toString(), sqliteFile: "" });
  return {
    db,
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.close();
    },
  };
}

/** The p-th quantile (0 to 1) of ascending values, nearest rank. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
