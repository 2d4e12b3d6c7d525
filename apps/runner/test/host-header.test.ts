import { describe, expect, test } from "bun:test";
import { parseTrustedProxies } from "@platform/server";
import { expectedByHost, statusesByHost, testStore } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { unavailableRunner } from "../src/sandbox/runner.ts";
import { ALL_LAYERS, FULL_KERNEL, silentLogger } from "./support.ts";

// Routing is the app's, not the sandbox's: a runner that runs nothing answers the same paths.
// A short Host used to shift Elysia's path (packages/server request-target.ts repairs it).
const app = createApp({
  runner: unavailableRunner(ALL_LAYERS, "not needed to route"),
  kernel: FULL_KERNEL,
  store: testStore("runner"),
  logger: silentLogger(),
  trustedProxies: parseTrustedProxies("loopback"),
  runsPerMinute: 10_000,
});

describe("the runner routes right whatever the Host", () => {
  test("GET /health/live", async () => {
    expect(await statusesByHost(app, { path: "/health/live" })).toEqual(expectedByHost(200));
  });

  test("POST /api/run reaches the run route (503: this runner has no sandbox)", async () => {
    const probe = {
      path: "/api/run",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "console.log(1)" }),
    };
    expect(await statusesByHost(app, probe)).toEqual(expectedByHost(503));
  });
});
