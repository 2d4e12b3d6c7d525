import { describe, expect, test } from "bun:test";
import { pipelined, rawRequest } from "@platform/server/testing";
import { setupApp, signIn } from "./support.ts";

// Pipelined requests on the listener HTTP_PIPELINING turns on, each waiting on the database;
// the CSV export streams its answer (and stops on request.signal when its client goes).
const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const authorized = (path: string) =>
  rawRequest(path, { headers: { authorization: `Bearer ${admin.accessToken}` } });

describe("admissions answers pipelined requests in order", () => {
  test("the catalog, then readiness", async () => {
    const responses = await pipelined(ctx.app, [
      rawRequest("/api/v1/catalog/programs/"),
      rawRequest("/health/ready/"),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse(responses[0]?.body ?? "")).toHaveProperty("results");
  });

  test("the streamed CSV export between two JSON answers", async () => {
    const responses = await pipelined(ctx.app, [
      authorized("/api/v1/staff/stats/"),
      authorized("/api/v1/staff/applications/export/"),
      rawRequest("/api/v1/catalog/programs/"),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(responses[1]?.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(responses[1]?.body.split("\n")[0]).toContain("id");
    expect(JSON.parse(responses[2]?.body ?? "")).toHaveProperty("results");
  });
});
