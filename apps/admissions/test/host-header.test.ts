import { describe, expect, test } from "bun:test";
import { expectedByHost, statusesByHost } from "@platform/server/testing";
import { setupApp } from "./support.ts";

// A short Host (`Host: api` from a proxy's upstream name) used to shift Elysia's path: serve()
// repairs such URLs (packages/server request-target.ts). On both databases, as the suite runs.
const { app } = await setupApp();

describe("admissions routes right whatever the Host", () => {
  test("GET /api/v1/catalog/programs/", async () => {
    expect(await statusesByHost(app, { path: "/api/v1/catalog/programs/" })).toEqual(
      expectedByHost(200),
    );
  });

  test("GET /health/ready/", async () => {
    expect(await statusesByHost(app, { path: "/health/ready/" })).toEqual(expectedByHost(200));
  });
});
