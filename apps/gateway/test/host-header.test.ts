import { afterAll, describe, expect, test } from "bun:test";
import { parseTrustedProxies } from "@platform/server";
import { expectedByHost, statusesByHost } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { fakeUpstream, routeTo, silent } from "./support.ts";

// The gateway behind nginx (`proxy_pass http://gw`) gets `Host: gw`: Elysia shifted the path,
// so /api/leaderboard went out as /leaderboard and /gateway/health became the admissions'
// /health. serve() repairs such URLs (packages/server request-target.ts).
const upstream = fakeUpstream();
const app = createApp({
  routes: [routeTo("leaderboard", upstream.target, ["/api/leaderboard"])],
  trustedProxies: parseTrustedProxies("none"),
  logger: silent,
  probeTimeoutMs: 300,
});
afterAll(() => upstream.server.stop(true));

describe("the gateway routes right whatever the Host", () => {
  test("its own /gateway/health", async () => {
    expect(await statusesByHost(app, { path: "/gateway/health" })).toEqual(expectedByHost(200));
  });

  test("a proxied path goes upstream as it came, query included", async () => {
    upstream.seen.length = 0;
    const statuses = await statusesByHost(app, { path: "/api/leaderboard?limit=3" });
    expect(statuses).toEqual(expectedByHost(200));
    // Every request but the one refused for its empty Host reached the upstream, unshifted.
    const paths = new Set(upstream.seen.map((seen) => seen.url));
    expect([...paths]).toEqual(["/api/leaderboard?limit=3"]);
    expect(upstream.seen).toHaveLength(Object.keys(statuses).length - 1);
  });
});
