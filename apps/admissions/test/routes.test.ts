import { describe, expect, test } from "bun:test";
import { ROUTES_DOC, routeTable, sameTable } from "../src/cli/routes.ts";
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
