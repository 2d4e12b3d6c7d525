import { expect, test } from "bun:test";
import { loadEnv } from "../src/env.ts";

test("WEB_PORT defaults to 3005 and must be a port", () => {
  expect(loadEnv({}).WEB_PORT).toBe(3005);
  expect(loadEnv({ WEB_PORT: "4150" }).WEB_PORT).toBe(4150);
  expect(() => loadEnv({ WEB_PORT: "70000" })).toThrow(/WEB_PORT/);
  expect(() => loadEnv({ WEB_PORT: "web" })).toThrow(/WEB_PORT/);
});
