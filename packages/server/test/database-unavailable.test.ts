/** A database that is not there answers 503 with Retry-After, and the log says why. */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createLogger, isDatabaseUnavailable, memorySink, platform } from "../src/index.ts";
import { get, problemOf } from "./support/index.ts";

const postgresError = (fields: { code?: string; errno?: string }, message = "x") =>
  Object.assign(new Error(message), { name: "PostgresError", ...fields });

describe("a database that is unavailable", () => {
  test("Bun.SQL's connection codes and SQLSTATE 08 / 57P0x count; failed queries do not", () => {
    for (const error of [
      postgresError({ code: "ERR_POSTGRES_CONNECTION_REFUSED" }),
      postgresError({ code: "ERR_POSTGRES_CONNECTION_CLOSED" }),
      postgresError({ code: "ERR_POSTGRES_SERVER_ERROR", errno: "57P01" }),
      postgresError({ code: "ERR_POSTGRES_SERVER_ERROR", errno: "08006" }),
    ])
      expect(isDatabaseUnavailable(error), JSON.stringify(error)).toBe(true);
    for (const error of [
      postgresError({ code: "ERR_POSTGRES_SERVER_ERROR", errno: "23505" }),
      postgresError({ code: "ERR_POSTGRES_SYNTAX_ERROR", errno: "42601" }),
      new Error("ECONNREFUSED"),
      "not an error",
    ])
      expect(isDatabaseUnavailable(error)).toBe(false);
  });

  test("is answered 503 with Retry-After, logged as a warning naming the cause", async () => {
    const sink = memorySink();
    const logger = createLogger({ service: "test", level: "info", sink });
    const app = new Elysia().use(platform({ service: "test", logger })).get("/down", () => {
      throw postgresError({ code: "ERR_POSTGRES_CONNECTION_REFUSED" }, "Failed to connect");
    });
    const res = await app.handle(get("/down"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect((await problemOf(res)).code).toBe("SERVICE_UNAVAILABLE");
    const warning = sink.lines().find((line) => line.msg === "backing service unavailable");
    expect(warning?.err).toMatchObject({ name: "PostgresError", message: "Failed to connect" });
  });
});
