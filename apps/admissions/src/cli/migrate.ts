// `bun run migrate`: applies pending migrations to the configured database and says so.
import { withDatabase } from "./database.ts";

await withDatabase(async (db) => {
  console.log(`database (${db.dialect}) is up to date`);
});
