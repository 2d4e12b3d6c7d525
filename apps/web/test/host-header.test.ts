import { describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { expectedByHost, statusesByHost } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";

// A Kubernetes Service `web` on port 80 sends `Host: web`: Elysia shifted the path (the portal
// was a 404, the home page the whole URL) until serve() repaired such URLs (request-target.ts).
const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});

describe("the site routes right whatever the Host", () => {
  test.each(["/", "/portal/", "/health/live"])("GET %s", async (path) => {
    expect(await statusesByHost(app, { path })).toEqual(expectedByHost(200));
  });

  test("an asset", async () => {
    expect(await statusesByHost(app, { path: bundle.styles })).toEqual(expectedByHost(200));
  });
});
