import { afterAll, describe, expect, test } from "bun:test";
import { expectedByHost, statusesByHost } from "@platform/server/testing";
import { benchApp } from "./support.ts";

// A short Host (a Kubernetes Service `bench` is five characters, `b` or `lb` are not) used to
// shift Elysia's path: serve() repairs such URLs (packages/server request-target.ts).
const bench = benchApp();
afterAll(() => bench.close());

describe("bench routes right whatever the Host", () => {
  test("GET /health/live", async () => {
    expect(await statusesByHost(bench.app, { path: "/health/live" })).toEqual(expectedByHost(200));
  });

  test("GET /openapi.json (one segment: Elysia read it as the whole URL)", async () => {
    expect(await statusesByHost(bench.app, { path: "/openapi.json" })).toEqual(expectedByHost(200));
  });
});
