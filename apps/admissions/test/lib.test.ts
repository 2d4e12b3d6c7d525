import { describe, expect, test } from "bun:test";
import { toPage } from "../src/lib/pagination.ts";
import { containsPattern } from "../src/lib/search.ts";
import { preconditionsOf } from "../src/modules/workflow/service.ts";

describe("toPage", () => {
  const url = "http://internal:3001/api/v1/catalog/programs/?search=law&limit=10&offset=10";

  test("relative next/previous links keep the other parameters", () => {
    const page = toPage(url, { limit: 10, offset: 10 }, 35, []);
    expect(page.next).toBe("/api/v1/catalog/programs/?search=law&limit=10&offset=20");
    expect(page.previous).toBe("/api/v1/catalog/programs/?search=law&limit=10&offset=0");
  });

  test("no next on the last page, no previous on the first; an offset past the end goes back", () => {
    expect(toPage(url, { limit: 10, offset: 30 }, 35, []).next).toBeNull();
    expect(toPage(url, { limit: 10, offset: 0 }, 35, []).previous).toBeNull();
    expect(toPage(url, { limit: 10, offset: 100 }, 35, []).previous).toContain("offset=90");
  });
});

describe("containsPattern", () => {
  test("lower-cases and escapes LIKE's own characters", () => {
    expect(containsPattern("Law")).toBe("%law%");
    expect(containsPattern("100%_\\")).toBe("%100\\%\\_\\\\%");
  });
});

describe("preconditionsOf", () => {
  test("reads strong and weak ETags and the body version; '*' asks nothing", () => {
    expect(preconditionsOf('"4"', undefined)).toEqual([{ version: 4, via: "if-match" }]);
    expect(preconditionsOf('W/"4"', 4)).toEqual([
      { version: 4, via: "if-match" },
      { version: 4, via: "body" },
    ]);
    expect(preconditionsOf("*", undefined)).toEqual([]);
    expect(preconditionsOf(null, undefined)).toEqual([]);
    for (const bad of ["4", '"four"', '"1", "2"'])
      expect(() => preconditionsOf(bad, undefined)).toThrow();
  });
});
