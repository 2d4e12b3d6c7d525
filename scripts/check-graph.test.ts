/**
 * The order turbo.json gives the check's tasks, which is what lets it run two at a time: the
 * PostgreSQL + Redis tasks (one Redis, whose rate-limit windows they all count) one after another,
 * the smoke on those backends after them, and the drills (which stop the machine's PostgreSQL and
 * load the machine) after every other task. The web portal's pass stands apart from that chain,
 * on a Redis database of its own (CHECK_WEB_REDIS_URL), so it need not wait for it.
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
const WEB = "@platform/web#test:backends";

describe("turbo.json orders the check's tasks", () => {
  test("the PostgreSQL + Redis tasks form one chain, the smoke on them last", () => {
    const second = [...idsOf("test:backends"), "//#smoke:backends"].filter((id) => id !== WEB);
    // Each depends on exactly one other of them, and following the chain from the smoke
    // reaches every one of them once.
    const seen: string[] = [];
    for (let at: string | undefined = "//#smoke:backends"; at; at = dependsOn(at)[0]) {
      seen.push(at);
      expect(dependsOn(at).length).toBeLessThanOrEqual(1);
    }
    expect(seen.sort()).toEqual(second.sort());
  });

  test("the web portal's pass is outside the chain, on a Redis database no other task uses", () => {
    expect(dependsOn(WEB)).toEqual([]);
    for (const id of Object.keys(turbo.tasks))
      expect({ id, on: dependsOn(id).includes(WEB) }).toEqual({ id, on: id === "//#drills" });
    const scriptOf = (id: string) => {
      const [name, task = ""] = id.split("#");
      const pkg = packages.find((p) => p.name === name);
      return (name === "//" ? rootScripts : (pkg?.scripts ?? {}))[task] ?? "";
    };
    for (const id of [...idsOf("test:backends"), "//#smoke:backends"]) {
      expect({ id, own: scriptOf(id).includes("CHECK_WEB_REDIS_URL") }).toEqual({
        id,
        own: id === WEB,
      });
    }
  });

  test("the drills come after every other task of the check", () => {
    const others = CHECK.flatMap(idsOf).filter((id) => !id.endsWith("#test:backends"));
    const after = new Set(dependsOn("//#drills"));
    expect(others.filter((id) => id !== "//#smoke:backends" && !after.has(id))).toEqual([]);
    expect(after.has("//#smoke:backends")).toBe(true);
    expect(after.has(WEB)).toBe(true);
  });

  test("no root task depends on `test` or `typecheck` by bare name (the root's run turbo)", () => {
    for (const [id, config] of Object.entries(turbo.tasks))
      expect({ id, bare: (config.dependsOn ?? []).filter((dep) => !dep.includes("#")) }).toEqual({
        id,
        bare: [],
      });
  });
});
