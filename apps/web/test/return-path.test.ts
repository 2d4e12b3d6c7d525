/**
 * Where the portal sends someone after signing in (`?next=`), and back after a language switch:
 * only a page of this portal on this origin, whatever a hostile link puts there. Each value is
 * judged as a browser reads it (resolved against the page's origin), so the table holds the
 * forms browsers read as another origin: backslashes, tabs and newlines they drop, schemes.
 */
import { describe, expect, test } from "bun:test";
import { staffNext } from "../src/client/portal/staff/ui/session.ts";
import { safeNext } from "../src/client/portal/ui/session.ts";

const ORIGINS = ["https://portal.example", "http://127.0.0.1:3000"];

/** Forms that leave the origin, or run script, in a browser; each must fall back. */
const HOSTILE = [
  "//evil.example",
  "//evil.example/portal/account",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/%09/evil.example",
  "/%5Cevil.example",
  "/%2F/evil.example",
  "/ /evil.example",
  "https:evil.example",
  "http:evil.example",
  "https://evil.example/portal/account",
  "HTTPS://EVIL.EXAMPLE/portal/",
  "//portal.example@evil.example/portal/",
  "https://portal.example.evil.example/portal/",
  "javascript:alert(document.domain)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "/portal/../\\evil.example",
  "/portal/..//evil.example",
  "／／evil.example",
  // Same origin, but not a portal page: an API route (a GET with an effect) or any other path.
  "/api/v1/auth/logout/",
  "/gateway/health",
  "/assets/../api/v1/auth/me/",
  "/",
  "/game/",
  "evil.example",
  "",
];

describe.each(ORIGINS)("on %s", (origin) => {
  test.each(HOSTILE)("the applicant's next %p falls back to My applications", (next) => {
    expect(safeNext(next, origin)).toBe("/portal/applications/");
  });

  test.each(HOSTILE)("the staff next %p falls back to the queue", (next) => {
    expect(staffNext(next, origin)).toBe("/portal/staff/");
  });

  test("no next at all falls back", () => {
    expect(safeNext(null, origin)).toBe("/portal/applications/");
    expect(staffNext(null, origin)).toBe("/portal/staff/");
  });

  test.each([
    ["/portal/account", "/portal/account"],
    ["/portal/applications/0198f2c4-5b7e-7c3a", "/portal/applications/0198f2c4-5b7e-7c3a"],
    // Stripe's return page needs its query; a fragment stays too.
    [
      "/payments/return?payment=p1&result=cancelled",
      "/payments/return?payment=p1&result=cancelled",
    ],
    ["/account/profile#history", "/account/profile#history"],
    ["/portal/applications", "/portal/applications"],
    // Written another way, the same page: what is kept is the path the browser resolved.
    ["/portal/./programs/x", "/portal/programs/x"],
    [`${origin}/portal/account`, "/portal/account"],
    // Another page's own ?next= is that page's to judge when it runs.
    ["/portal/login?next=//evil.example", "/portal/login?next=//evil.example"],
  ])("the applicant's next %p is kept as %p", (next, kept) => {
    expect(safeNext(next, origin)).toBe(kept);
  });

  test("an applicant's next cannot name a staff page, nor the staff's an applicant's", () => {
    expect(safeNext("/portal/staff/users", origin)).toBe("/portal/applications/");
    expect(staffNext("/portal/account", origin)).toBe("/portal/staff/");
    expect(staffNext("/portal/staff/applications/a1", origin)).toBe(
      "/portal/staff/applications/a1",
    );
  });

  test("whatever is kept is a path on this origin, read again as a browser would", () => {
    for (const next of [...HOSTILE, "/portal/account", "/portal/programs/%2F%2Fevil.example"]) {
      for (const kept of [safeNext(next, origin), staffNext(next, origin)]) {
        expect(kept).toMatch(/^\/[^/\\]/);
        expect(new URL(kept, origin).origin).toBe(origin);
      }
    }
  });
});
