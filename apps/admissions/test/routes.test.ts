import { describe, expect, test } from "bun:test";
import { ROUTES_DOC, routeOwners, routeTable, sameTable } from "../src/cli/routes.ts";
import { setupApp } from "./support.ts";

const ctx = await setupApp();

describe("docs/admissions-routes.md", () => {
  test("is current: every route the app serves, with the file that answers it", async () => {
    const onDisk = await Bun.file(ROUTES_DOC).text();
    // On a mismatch: `bun run routes` in apps/admissions rewrites it.
    expect(sameTable(onDisk)).toBe(sameTable(routeTable(ctx.app.routes)));
  });

  test("names a file of the code for every route, none left to a guess", () => {
    expect(routeTable(ctx.app.routes)).not.toContain("(a plugin's own route)");
  });
});

/**
 * Routes whose URL does not yet name the module folder that serves them (issue 14): each
 * module still mounts on another module's prefix. The list may only shrink; a new route must
 * live in the folder its URL names.
 */
const NOT_YET_IN_THEIR_URLS_FOLDER = [
  "reference GET /api/v1/docs/",
  "reference GET /api/v1/redoc/",
  "reference GET /api/v1/schema/",
];

describe("a URL names the folder that serves it", () => {
  test("every route of a module has the module's folder as a path segment (known gaps aside)", () => {
    const misplaced = routeOwners(ctx.app.routes)
      .map(({ method, path, file }) => ({
        method,
        path,
        folder: /modules\/([^/]+)\//.exec(file)?.[1],
      }))
      .filter(({ folder, path }) => folder && !path.split("/").includes(folder))
      .map(({ folder, method, path }) => `${folder} ${method} ${path}`)
      .sort();
    expect(misplaced).toEqual([...NOT_YET_IN_THEIR_URLS_FOLDER].sort());
  });
});
