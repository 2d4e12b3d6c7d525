/**
 * docs/deploy.md's commands that create each app's Secret, held to the policy check's list of
 * what each Secret may hold (k8s-policy.ts `SECRET_KEYS`): a reader who copies them gets a
 * Secret the check accepts, and one for every app that reads one.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SECRET_KEYS } from "./k8s-policy.ts";

/** Each `kubectl -n <ns> create secret generic <app>-secrets --from-literal=KEY=…` command. */
export function secretCommands(page: string): Map<string, string[]> {
  const commands = new Map<string, string[]>();
  const joined = page.replaceAll("\\\n", " ");
  for (const [line = ""] of joined.matchAll(/^kubectl .*create secret generic .*$/gm)) {
    const name = /create secret generic (\S+)/.exec(line)?.[1] ?? "";
    const keys = [...line.matchAll(/--from-literal=([A-Z0-9_]+)=/g)].map(([, key = ""]) => key);
    commands.set(name.replace(/-secrets$/, ""), keys);
  }
  return commands;
}

describe("docs/deploy.md's Secrets", () => {
  test("one command per app with a Secret, each key one that app may hold", async () => {
    const page = await Bun.file(join(import.meta.dir, "../docs/deploy.md")).text();
    const commands = secretCommands(page);
    expect([...commands.keys()].sort()).toEqual(Object.keys(SECRET_KEYS).sort());
    for (const [app, keys] of commands) {
      expect(keys.length, app).toBeGreaterThan(0);
      for (const key of keys) expect(SECRET_KEYS[app], `${app}: ${key}`).toContain(key);
    }
  });

  test("a key an app may not hold is found (it can fail)", () => {
    const page = [
      "kubectl -n platform-runner create secret generic runner-secrets \\",
      "  --from-literal=REDIS_URL=redis://… \\",
      "  --from-literal=DATABASE_URL=postgres://…",
    ].join("\n");
    const runner = secretCommands(page).get("runner") ?? [];
    expect(runner).toEqual(["REDIS_URL", "DATABASE_URL"]);
    expect(runner.filter((key) => !SECRET_KEYS.runner?.includes(key))).toEqual(["DATABASE_URL"]);
  });
});
