import { databaseConfig } from "../config.ts";
import { type Db, openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { type AdmissionsEnv, loadEnv } from "../env.ts";
import { chainAuditBacklog } from "../modules/audit/service.ts";

/**
 * Runs a command against the configured database (migrated first), then closes it. Any error
 * is printed plainly and ends the process with status 1. `refuseInProduction` (a reason) stops
 * the command before the database is touched when NODE_ENV=production.
 */
export async function withDatabase(
  command: (db: Db, env: AdmissionsEnv) => Promise<void>,
  opts: { refuseInProduction?: string } = {},
): Promise<void> {
  let db: Db | undefined;
  try {
    const env = loadEnv();
    if (opts.refuseInProduction && env.NODE_ENV === "production") {
      throw new Error(`refusing in production: ${opts.refuseInProduction}`);
    }
    db = await openDatabase(databaseConfig(env));
    const applied = await migrate(db);
    if (applied.length > 0) console.log(`migrations applied: ${applied.join(", ")}`);
    // As at start-up: entries from before the hash chain join it before any new one does.
    await chainAuditBacklog(db);
    await command(db, env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  } finally {
    await db?.close();
  }
}
