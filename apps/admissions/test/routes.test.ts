import { describe, expect, test } from "bun:test";
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
  /**
   * Issue 14: a URL leads to its code. No exceptions: a new route lives in the folder its URL
   * names, or the URL names the folder it lives in.
   */
  test("every route of a module has the module's folder as a path segment", () => {
    const misplaced = routeOwners(ctx.app.routes)
      .map(({ method, path, file }) => ({
        method,
        path,
        folder: /modules\/([^/]+)\//.exec(file)?.[1],
      }))
      .filter(({ folder, path }) => folder && !path.split("/").includes(folder))
      .map(({ folder, method, path }) => `${folder} ${method} ${path}`)
      .sort();
    expect(misplaced).toEqual([]);
  });
});
