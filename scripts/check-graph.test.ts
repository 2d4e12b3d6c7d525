/**
 * The order turbo.json gives the check's tasks, which is what lets it run two at a time: the
 * PostgreSQL + Redis tasks (one Redis, whose rate-limit windows they all count) one after another,
 * the smoke on those backends after them, and the drills (which stop the machine's PostgreSQL and
 * load the machine) after every other task.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
type TaskConfig = { dependsOn?: string[] };
const turbo = JSON.parse(readFileSync(join(root, "turbo.json"), "utf8")) as {
  tasks: Record<string, TaskConfig>;
};
const packages = [
  { name: "//", scripts: {} },
  ...["apps", "packages"].flatMap((group) =>
    readdirSync(join(root, group)).map(
      (dir) =>
        JSON.parse(readFileSync(join(root, group, dir, "package.json"), "utf8")) as {
          name: string;
          scripts?: Record<string, string>;
        },
    ),
  ),
];
const rootScripts = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;
/** Every task of a `bun run check` with everything present but the compose stack. */
const CHECK = ["typecheck", "typecheck:tools", "lint", "lint:openapi", "test", "test:infra"];
CHECK.push("test:stats", "smoke", "test:backends", "smoke:backends");
const idsOf = (task: string) =>
  packages
    .filter((pkg) => (pkg.name === "//" ? rootScripts : (pkg.scripts ?? {}))[task] !== undefined)
    .filter((pkg) => pkg.name !== "//" || turbo.tasks[`//#${task}`])
    .map((pkg) => `${pkg.name}#${task}`);
const dependsOn = (id: string) => turbo.tasks[id]?.dependsOn ?? [];

describe("turbo.json orders the check's tasks", () => {
  test("the PostgreSQL + Redis tasks form one chain, the smoke on them last", () => {
    const second = [...idsOf("test:backends"), "//#smoke:backends"];
    // Each depends on exactly one other of them, and following the chain from the smoke
    // reaches every one of them once.
    const seen: string[] = [];
    for (let at: string | undefined = "//#smoke:backends"; at; at = dependsOn(at)[0]) {
      seen.push(at);
      expect(dependsOn(at).length).toBeLessThanOrEqual(1);
    }
    expect(seen.sort()).toEqual(second.sort());
  });

  test("the drills come after every other task of the check", () => {
    const others = CHECK.flatMap(idsOf).filter((id) => !id.endsWith("#test:backends"));
    const after = new Set(dependsOn("//#drills"));
    expect(others.filter((id) => id !== "//#smoke:backends" && !after.has(id))).toEqual([]);
    expect(after.has("//#smoke:backends")).toBe(true);
  });

  test("no root task depends on `test` or `typecheck` by bare name (the root's run turbo)", () => {
    for (const [id, config] of Object.entries(turbo.tasks))
      expect({ id, bare: (config.dependsOn ?? []).filter((dep) => !dep.includes("#")) }).toEqual({
        id,
        bare: [],
      });
  });
});
