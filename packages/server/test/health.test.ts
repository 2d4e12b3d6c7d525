import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createLogger, healthRoutes, memorySink, platform } from "../src/index.ts";
import { get, problemOf } from "./support/index.ts";

const logger = createLogger({ service: "t", level: "silent" });

describe("healthRoutes", () => {
  test("live and ready answer 200, with or without a trailing slash", async () => {
    const app = new Elysia()
      .use(platform({ service: "t", logger }))
      .use(healthRoutes("t", { store: async () => {} }));
    for (const path of ["/health/live", "/health/live/", "/health/ready", "/health/ready/"]) {
      const res = await app.handle(get(path));
      expect(res.status).toBe(200);
    }
    expect(await (await app.handle(get("/health/ready"))).json()).toEqual({
      status: "ok",
      service: "t",
      checks: { store: "ok" },
    });
  });

  test("a failing or hanging dependency makes ready a 503 problem naming it; live stays 200", async () => {
    const sink = memorySink();
    const app = new Elysia()
      .use(platform({ service: "t", logger: createLogger({ service: "t", level: "info", sink }) }))
      .use(
        healthRoutes("t", {
          store: async () => {
            throw new Error("connection refused");
          },
          db: async () => {},
        }),
      );
    const res = await app.handle(get("/health/ready/"));
    expect(res.status).toBe(503);
    const problem = (await problemOf(res)) as Awaited<ReturnType<typeof problemOf>> & {
      checks: unknown;
    };
    expect(problem.code).toBe("NOT_READY");
    expect(problem.checks).toEqual({ store: "connection refused", db: "ok" });
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await app.handle(get("/health/live"))).status).toBe(200);
    // The access log says which dependency failed and how, not only that the probe did.
    await Bun.sleep(5);
    const [refused] = sink.lines().filter((line) => line.msg === "request");
    expect(refused).toMatchObject({
      status: 503,
      problem: "NOT_READY",
      reason: { store: "connection refused" },
    });
  });
});
