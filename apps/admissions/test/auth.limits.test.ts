import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { json, setupApp, uniqueEmail } from "./support.ts";

// In-process requests have no peer address: they all spend the one key "unknown".
const limited = await setupApp({ registrationsPerHour: 2 });
const register = (body: unknown) =>
  limited.app.handle(json("POST", "/api/v1/auth/register/", body));
const applicant = () => ({
  email: uniqueEmail("limited"),
  password: "long-enough-password",
  fullName: "Ada Lovelace",
});

describe("registration is rate limited per client IP (the rateLimit macro)", () => {
  test("an invalid request spends the quota too; past it, 429 with Retry-After", async () => {
    const invalid = await register({ ...applicant(), password: "short" });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("ratelimit-policy")).toBe('"register";q=2;w=3600');
    expect(invalid.headers.get("ratelimit")).toContain("r=1");
    const created = await register(applicant());
    expect(created.status).toBe(202);
    expect(created.headers.get("ratelimit")).toContain("r=0");
    const refused = await register(applicant());
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a body that cannot be read spends the quota as well (400 and 415)", async () => {
    const ctx = await setupApp({ registrationsPerHour: 2 });
    const raw = (body: string, type: string) =>
      ctx.app.handle(
        new Request("http://localhost/api/v1/auth/register/", {
          method: "POST",
          headers: { "content-type": type },
          body,
        }),
      );
    const malformed = await raw("{", "application/json");
    expect((await problemOf(malformed)).code).toBe("MALFORMED_JSON");
    expect(malformed.headers.get("ratelimit")).toContain("r=1");
    const wrongType = await raw("email=a", "application/x-www-form-urlencoded");
    expect(wrongType.status).toBe(415);
    expect(wrongType.headers.get("ratelimit")).toContain("r=0");
    const refused = await ctx.app.handle(json("POST", "/api/v1/auth/register/", applicant()));
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
  });

  test("other routes of the module are not limited", async () => {
    const res = await limited.app.handle(json("POST", "/api/v1/auth/login/", applicant()));
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit")).toBeNull();
  });
});
