import { afterAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { loadEnv } from "../src/env.ts";
import { matchRoute, routingTable } from "../src/modules/proxy/routes.ts";
import { deadTarget, fakeUpstream, routeTo, type Seen, startGateway } from "./support.ts";

// The site (apps/web) takes every path no API claims; /api and /gateway stay the gateway's 404s.
const upstreams = {
  admissions: fakeUpstream(),
  leaderboard: fakeUpstream(),
  runner: fakeUpstream(),
  bench: fakeUpstream(),
  web: fakeUpstream(),
};
const gateway = await startGateway([
  routeTo("admissions", upstreams.admissions.target, ["/health", "/api/v1"]),
  routeTo("leaderboard", upstreams.leaderboard.target, ["/api/leaderboard"]),
  routeTo("runner", upstreams.runner.target, ["/api/run"]),
  routeTo("bench", upstreams.bench.target, ["/api/benchmark"]),
  routeTo("web", upstreams.web.target, ["/"], { fallback: true }),
]);
afterAll(async () => {
  await gateway.stop();
  for (const upstream of Object.values(upstreams)) upstream.server.stop(true);
});
const total = () => Object.values(upstreams).reduce((n, u) => n + u.seen.length, 0);

describe("the site behind the gateway", () => {
  test.each([
    "/",
    "/game/",
    "/playground/?example=2",
    "/bench",
    "/portal/",
    "/assets/game-page-abc123.js",
    "/no/such/page",
    "/healthz",
    "/apis",
    "/api-docs",
    "/gateways",
  ])("%s → web, path and query intact", async (path) => {
    const before = upstreams.web.seen.length;
    const res = await fetch(gateway.base + path, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Seen).url).toBe(path);
    expect(upstreams.web.seen.length).toBe(before + 1);
  });

  test.each([
    "/api",
    "/api/",
    "/api/nope",
    "/api/runner",
    "/api/leaderboards",
    "/api/v2/x",
    "/api?x=1",
    "/gateway/nope",
    "/gateway",
  ])("%s is an API path no service owns → 404 problem+json, nothing forwarded", async (path) => {
    const before = total();
    const res = await fetch(gateway.base + path, { headers: { accept: "text/html" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("application/problem+json");
    expect((await problemOf(res)).code).toBe("NOT_FOUND");
    expect(total()).toBe(before);
  });

  test("API prefixes still win over the fallback", async () => {
    for (const [path, name] of [
      ["/health/ready", "admissions"],
      ["/api/v1/catalog/programs/", "admissions"],
      ["/api/leaderboard", "leaderboard"],
      ["/api/run", "runner"],
      ["/api/benchmark/", "bench"],
    ] as const) {
      const before = upstreams[name].seen.length;
      await (await fetch(gateway.base + path)).body?.cancel();
      expect(upstreams[name].seen.length).toBe(before + 1);
    }
  });

  test("a POST to a page is forwarded as it came (the site decides what to answer)", async () => {
    const res = await fetch(`${gateway.base}/game/`, { method: "POST", body: "x=1" });
    const seen = (await res.json()) as Seen;
    expect(seen).toMatchObject({ method: "POST", url: "/game/", body: "x=1" });
  });

  test("/gateway/health lists the site with the APIs", async () => {
    const res = await fetch(`${gateway.base}/gateway/health`);
    const body = (await res.json()) as { upstreams: Record<string, { status: string }> };
    expect(Object.keys(body.upstreams).sort()).toEqual(
      ["admissions", "bench", "leaderboard", "runner", "web"].sort(),
    );
  });

  test("with the site down, pages are 502 problem+json naming it; APIs are unaffected", async () => {
    const alone = await startGateway([
      routeTo("leaderboard", upstreams.leaderboard.target, ["/api/leaderboard"]),
      routeTo("web", await deadTarget(), ["/"], { fallback: true }),
    ]);
    const page = await fetch(`${alone.base}/game/`);
    expect(page.status).toBe(502);
    expect(await problemOf(page)).toMatchObject({ code: "BAD_GATEWAY", upstream: "web" });
    expect((await fetch(`${alone.base}/api/leaderboard`)).status).toBe(200);
    await alone.stop();
  });
});

describe("the site in the routing table", () => {
  test("WEB_URL, else 127.0.0.1 on WEB_PORT (3005); it is the one fallback", () => {
    const byDefault = routingTable(loadEnv({})).filter((route) => route.fallback);
    expect(byDefault).toHaveLength(1);
    expect(byDefault[0]).toMatchObject({
      upstream: "web",
      target: "http://127.0.0.1:3005",
      timeoutMs: 10_000,
    });
    const moved = routingTable(loadEnv({ WEB_PORT: "4123" })).find((r) => r.upstream === "web");
    expect(moved?.target).toBe("http://127.0.0.1:4123");
    const named = routingTable(loadEnv({ WEB_URL: "http://web:3005/" }));
    expect(named.find((r) => r.upstream === "web")?.target).toBe("http://web:3005");
    expect(() => loadEnv({ WEB_URL: "web:3005" })).toThrow(/WEB_URL/);
  });

  test("matching without a fallback route leaves unknown paths unmatched", () => {
    const routes = routingTable(loadEnv({})).filter((route) => !route.fallback);
    expect(matchRoute(routes, "/game/")).toBeUndefined();
    expect(matchRoute(routingTable(loadEnv({})), "/game/")?.upstream).toBe("web");
    expect(matchRoute(routingTable(loadEnv({})), "/api/nope")).toBeUndefined();
  });
});
