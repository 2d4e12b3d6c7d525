import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROUTES_DOC, routeOwners, routeTable, sameTable } from "../src/cli/routes.ts";
import { setupApp } from "./support.ts";

const ctx = await setupApp();

describe("docs/admissions/admissions-routes.md", () => {
  test("is current: every route the app serves, with the file that answers it", async () => {
    const onDisk = await Bun.file(ROUTES_DOC).text();
    // On a mismatch: `bun run routes` in apps/admissions rewrites it.
    expect(sameTable(onDisk)).toBe(sameTable(routeTable(ctx.app.routes)));
  });

  test("names a file of the code for every route, none left to a guess", () => {
    expect(routeTable(ctx.app.routes)).not.toContain("(a plugin's own route)");
  });
});

describe("a URL names the folder that serves it", () => {
  const modules = join(import.meta.dir, "../src/modules");
  /** A module's parts: the files of its internal/, each one part of the feature. */
  const partsOf = (folder: string) => {
    const internal = join(modules, folder, "internal");
    return existsSync(internal)
      ? readdirSync(internal).map((file) => file.replace(/\.ts$/, ""))
      : [];
  };

  /**
   * Issue 14: a URL leads to its code. No exceptions: a route lives in the module its URL names,
   * or the URL names the part of the module that serves it (the review module's `rubric`, in
   * `review/internal/rubric.ts`, answers /staff/programs/:id/rubric/).
   */
  test("every route of a module has the module's folder, or one of its parts, as a path segment", () => {
    const misplaced = routeOwners(ctx.app.routes)
      .map(({ method, path, file }) => ({
        method,
        path,
        folder: /modules\/([^/]+)\//.exec(file)?.[1],
      }))
      .filter(({ folder, path }) => {
        if (!folder) return false;
        const segments = path.split("/");
        return ![folder, ...partsOf(folder)].some((name) => segments.includes(name));
      })
      .map(({ folder, method, path }) => `${folder} ${method} ${path}`)
      .sort();
    expect(misplaced).toEqual([]);
  });
});
