/**
 * The PostgreSQL databases the suites run on (TEST_DATABASE_URL names the server): one per
 * suite, made and dropped here, off the tests' own time where that is safe.
 *
 * - One migrated template per test process; a suite that wants a migrated database gets a copy
 *   (CREATE DATABASE … TEMPLATE), not a fresh migration (0.3 s a suite).
 * - The next suite's copy is made while the current suite runs: a copy took 0.4 s of the
 *   suite's time, 95 of them 45 s of this pass's 143 s, while the server had CPU to spare.
 * - A suite's database is dropped in the background once the suite is done (11 s of the pass);
 *   the run's last afterAll (test/preload.ts) waits for every drop, then drops the template.
 * - Every name carries the process id, so the next run drops what a killed run left behind.
 */
import { SQL } from "bun";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";

const TEMPLATE_PREFIX = "admissions_template_";
const SUITE_PREFIX = "admissions_test_";
const PREFIXES = [TEMPLATE_PREFIX, SUITE_PREFIX];

let admin: SQL | undefined;
let template: Promise<string> | undefined;
/** The copy the next suite takes, being made now. */
let spare: Promise<string> | undefined;
const drops = new Set<Promise<void>>();

const connection = (serverUrl: string) => {
  admin ??= new SQL(serverUrl);
  return admin;
};
const newName = (prefix: string) => `${prefix}${process.pid}_${crypto.randomUUID().slice(0, 8)}`;
export const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Databases a run left when it was killed: its process is gone, so nobody else uses them. */
async function dropStale(sql: SQL): Promise<void> {
  for (const prefix of PREFIXES) {
    const stale: { datname: string }[] =
      await sql`SELECT datname FROM pg_database WHERE datname LIKE ${`${prefix}%`}`;
    for (const { datname } of stale) {
      const pid = Number(datname.slice(prefix.length).split("_")[0]);
      if (!processAlive(pid)) await sql.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  }
}

function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= (async () => {
    const sql = connection(serverUrl);
    await dropStale(sql);
    const name = newName(TEMPLATE_PREFIX);
    await sql.unsafe(`CREATE DATABASE ${name}`);
    // Closed before any copy: PostgreSQL copies only a template nobody is connected to.
    const db = await openDatabase({ url: databaseUrl(serverUrl, name), sqliteFile: ":memory:" });
    await migrate(db);
    await db.close();
    return name;
  })();
  return template;
}

async function copyOfTemplate(serverUrl: string): Promise<string> {
  const from = await migratedTemplate(serverUrl);
  const name = newName(SUITE_PREFIX);
  await connection(serverUrl).unsafe(`CREATE DATABASE ${name} TEMPLATE ${from}`);
  return name;
}

/** A migrated database of the suite's own: the spare made meanwhile, and the next spare begun. */
export async function migratedDatabase(serverUrl: string): Promise<string> {
  const taken = spare ?? copyOfTemplate(serverUrl);
  // One copy at a time: the next starts once this one is made (and also if it failed).
  spare = taken.then(
    () => copyOfTemplate(serverUrl),
    () => copyOfTemplate(serverUrl),
  );
  // A spare nobody takes is dropped at the end; its failure is the next taker's to report.
  spare.catch(() => {});
  return taken;
}

/** An empty database of the suite's own (a suite that migrates it itself). */
export async function emptyDatabase(serverUrl: string): Promise<string> {
  const name = newName(SUITE_PREFIX);
  await connection(serverUrl).unsafe(`CREATE DATABASE ${name}`);
  return name;
}

/** Dropped in the background: the run's end waits for it (`dropAll`). */
export function dropLater(serverUrl: string, name: string): void {
  const dropping = connection(serverUrl)
    .unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    .then(() => {});
  drops.add(dropping);
  dropping.finally(() => drops.delete(dropping)).catch(() => {});
}

/** Once every suite is done: each pending drop, the unused spare, then the template. */
export async function dropAll(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!admin || !serverUrl) return;
  const unused = await spare?.catch(() => undefined);
  if (unused) dropLater(serverUrl, unused);
  const made = await template?.catch(() => undefined);
  if (made) dropLater(serverUrl, made);
  await Promise.all([...drops]);
  await admin.close();
  admin = undefined;
}
