// `bun run seed [-- --password <demo password>]`: the demo catalog, demo accounts and a few
// applications, so a fresh start shows real-looking data. Refused in production: the demo
// accounts share a published password.
import { parseArgs } from "node:util";
import { PRODUCTION_PASSWORD_COST } from "../modules/users/model.ts";
import { DEMO_USERS, seedDemo } from "../seed/demo.ts";
import { withDatabase } from "./database.ts";

export const DEFAULT_DEMO_PASSWORD = "demo-password-2026";

await withDatabase(
  async (db) => {
    const { values } = parseArgs({
      args: Bun.argv.slice(2),
      options: { password: { type: "string", default: DEFAULT_DEMO_PASSWORD } },
    });
    const password = values.password ?? DEFAULT_DEMO_PASSWORD;
    const summary = await seedDemo(db, {
      nowMs: Date.now(),
      password,
      cost: PRODUCTION_PASSWORD_COST,
    });
    if (!summary) {
      console.log("demo data already present; nothing to do");
      return;
    }
    console.log(
      `seeded ${summary.programs} programs, ${summary.intakes} intakes, ${summary.users} users, ${summary.applications} applications`,
    );
    console.log(`demo accounts (password "${password}"):`);
    for (const user of DEMO_USERS) console.log(`  ${user.role.padEnd(9)} ${user.email}`);
  },
  { refuseInProduction: "the demo accounts share a published password" },
);
