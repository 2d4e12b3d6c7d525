import { describe, expect, test } from "bun:test";
import { redisStore } from "@platform/server";
import { freePort, get, problemOf } from "@platform/server/testing";
import { openDatabase } from "../src/db/client.ts";
import { setupApp } from "./support.ts";

type Problem = Awaited<ReturnType<typeof problemOf>>;

const ctx = await setupApp();

describe("probes", () => {
  test.each([["/health/live"], ["/health/ready"], ["/health/redis"]])(
    "%s answers 200 with and without the trailing slash",
    async (path) => {
      for (const variant of [path, `${path}/`]) {
        expect((await ctx.app.handle(get(variant))).status).toBe(200);
      }
    },
  );

  test("ready checks the database and the store", async () => {
    const res = await ctx.app.handle(get("/health/ready/"));
    expect(await res.json()).toEqual({
      status: "ok",
      service: "admissions",
      checks: { database: "ok", store: "ok" },
    });
  });

  test("the store probe names the backend in use", async () => {
    const res = await ctx.app.handle(get("/health/redis/"));
    expect(await res.json()).toEqual({
      status: "ok",
      service: "admissions",
      store: ctx.store.kind,
    });
  });

  test("a database that is down: ready 503 naming it; live stays 200", async () => {
    const db = await openDatabase({ sqliteFile: ":memory:" });
    await db.close();
    const down = await setupApp({ db });
    const res = await down.app.handle(get("/health/ready/"));
    expect(res.status).toBe(503);
    const problem = (await problemOf(res)) as Problem & { checks: Record<string, string> };
    expect(problem.code).toBe("NOT_READY");
    expect(problem.checks.database).not.toBe("ok");
    expect(problem.checks.store).toBe("ok");
    expect((await down.app.handle(get("/health/live/"))).status).toBe(200);
  });

  test("a configured Redis that is unreachable: ready and redis probes 503", async () => {
    const store = redisStore(`redis://127.0.0.1:${await freePort()}`, { prefix: "probe:" });
    const down = await setupApp({ store });
    for (const path of ["/health/ready/", "/health/redis/"]) {
      const res = await down.app.handle(get(path));
      expect(res.status).toBe(503);
      const problem = (await problemOf(res)) as Problem & { checks: Record<string, string> };
      expect(problem.checks.store).not.toBe("ok");
      expect(res.headers.get("retry-after")).toBe("5");
    }
    await store.close();
  });

  test("with Redis unreachable the public catalog is still served, from the database", async () => {
    const store = redisStore(`redis://127.0.0.1:${await freePort()}`, { prefix: "catalog:" });
    const down = await setupApp({ store });
    const res = await down.app.handle(get("/api/v1/catalog/programs/"));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results).toBeArray();
    await store.close();
  });
});

describe("paths with and without the trailing slash", () => {
  test.each([
    ["/api/v1/catalog/programs/", "/api/v1/catalog/programs"],
    ["/api/v1/schema/", "/api/v1/schema"],
    ["/api/v1/auth/me/", "/api/v1/auth/me"],
    ["/api/v1/applications/", "/api/v1/applications"],
  ])("%s and %s reach the same route", async (withSlash, without) => {
    const a = await ctx.app.handle(get(withSlash));
    const b = await ctx.app.handle(get(without));
    expect(a.status).toBe(b.status);
    expect(a.status).not.toBe(404);
  });
});
