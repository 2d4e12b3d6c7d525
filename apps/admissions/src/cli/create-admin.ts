// `bun run create-admin -- --email admin@example.org --password '…' [--name 'Ada Admin']`
// or `… --password-stdin` to keep the password out of the shell history and process list.
import { parseArgs } from "node:util";
import { Value } from "@sinclair/typebox/value";
import { Email, FullName, Password, PRODUCTION_PASSWORD_COST } from "../modules/users/model.ts";
import { createUser } from "../modules/users/service.ts";
import { withDatabase } from "./database.ts";

const USAGE =
  "usage: bun run create-admin -- --email <email> (--password <password> | --password-stdin) [--name <full name>]";

async function readArguments() {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      email: { type: "string" },
      password: { type: "string" },
      "password-stdin": { type: "boolean" },
      name: { type: "string" },
    },
  });
  const password = values["password-stdin"]
    ? (await Bun.stdin.text()).replace(/\r?\n$/, "")
    : values.password;
  const email = values.email ?? "";
  const fullName = values.name ?? "Administrator";
  const problems = [
    Value.Check(Email, email) ? null : "--email must be an email address",
    password !== undefined && Value.Check(Password, password)
      ? null
      : "the password must be 10 to 128 characters",
    Value.Check(FullName, fullName)
      ? null
      : "--name must be 1 to 120 characters of one line, without control characters",
  ].filter((problem) => problem !== null);
  if (problems.length > 0) throw new Error(`${problems.join("\n")}\n${USAGE}`);
  return { email, password: password ?? "", fullName };
}

await withDatabase(async (db) => {
  const input = await readArguments();
  const admin = await createUser(
    db,
    { ...input, role: "admin" },
    PRODUCTION_PASSWORD_COST,
    Date.now(),
  );
  console.log(`created admin ${admin.email} (${admin.id})`);
});
