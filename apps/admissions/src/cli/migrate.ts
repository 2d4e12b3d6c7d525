/**
 * `bun run migrate`: applies pending migrations to the configured database and says so.
 * `bun run migrate --wait <seconds>` applies nothing: it waits until another process (the
 * Kubernetes migration Job) has applied every migration this code has, and exits 0, or exits 1
 * naming what is still pending when the time is up. The admissions Deployment's init step, so
 * that no replica starts on a schema older than its code and none migrates it itself.
 */
import { databaseConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { pendingMigrations } from "../db/migrate.ts";
import { loadEnv } from "../env.ts";
import { withDatabase } from "./database.ts";

const POLL_MS = 2_000;

async function waitUntilApplied(seconds: number): Promise<void> {
  const env = loadEnv();
  const deadline = Date.now() + seconds * 1000;
  let pending: string[] = ["(the database did not answer)"];
  while (Date.now() < deadline) {
    const db = await openDatabase(databaseConfig(env)).catch(() => undefined);
    if (db) {
      pending = await pendingMigrations(db).finally(() => db.close());
      if (pending.length === 0) {
        console.log(`database (${db.dialect}) is up to date`);
        return;
      }
    }
    await Bun.sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
  }
  console.error(`after ${seconds} s, still pending: ${pending.join(", ")}`);
  process.exitCode = 1;
}

const wait = process.argv.indexOf("--wait");
if (wait >= 0) {
  const seconds = Number(process.argv[wait + 1]);
  if (!Number.isInteger(seconds) || seconds < 1) {
    console.error("--wait takes a number of seconds, e.g. --wait 600");
    process.exitCode = 1;
  } else {
    await waitUntilApplied(seconds);
  }
} else {
  await withDatabase(async (db) => {
    console.log(`database (${db.dialect}) is up to date`);
  });
}
