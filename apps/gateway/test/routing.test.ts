import { afterAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { loadEnv } from "../src/env.ts";
import { routingTable } from "../src/modules/proxy/routes.ts";
import { deadTarget, fakeUpstream, routeTo, type Seen, startGateway } from "./support.ts";

const upstreams = {
  admissions: fakeUpstream(),
  leaderboard: fakeUpstream(),
  runner: fakeUpstream(),
  bench: fakeUpstream(),
};
const gateway = await startGateway([
  routeTo("admissions", upstreams.admissions.target, ["/health", "/api/v1"]),
  routeTo("leaderboard", upstreams.leaderboard.target, ["/api/leaderboard"]),
  routeTo("runner", upstreams.runner.target, ["/api/run"]),
  routeTo("bench", upstreams.bench.target, ["/api/benchmark"]),
]);
afterAll(async () => {
  await gateway.stop();
  for (const upstream of Object.values(upstreams)) upstream.server.stop(true);
});

describe("routing table of decisions.md", () => {
  test.each([
    ["/health/ready/", "admissions"],
    ["/health/live/", "admissions"],
    ["/health/redis/", "admissions"],
    ["/api/v1/catalog/programs/?limit=5", "admissions"],
    ["/api/v1/auth/login/", "admissions"],
    ["/api/leaderboard", "leaderboard"],
    ["/api/leaderboard/", "leaderboard"],
    ["/api/run", "runner"],
    ["/api/benchmark", "bench"],
  ] as const)("%s → %s, path and query intact", async (path, name) => {
    const before = upstreams[name].seen.length;
    const res = await fetch(gateway.base + path);
    expect(res.status).toBe(200);
    expect(upstreams[name].seen.length).toBe(before + 1);
    expect(((await res.json()) as Seen).url).toBe(path);
  });

  test.each([
    "/api/runner",
    "/api/leaderboards",
    "/api",
    "/",
    "/api/v2/x",
    "/healthz",
    "/gateway/nope",
  ])("%s matches no route → 404 problem, no upstream called", async (path) => {
    const total = () => Object.values(upstreams).reduce((n, u) => n + u.seen.length, 0);
    const before = total();
    const res = await fetch(gateway.base + path);
    expect(res.status).toBe(404);
    expect((await problemOf(res)).code).toBe("NOT_FOUND");
    expect(total()).toBe(before);
  });

  test("methods and bodies pass through unchanged", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${gateway.base}/api/v1/things/7/`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ method }),
      });
      const seen = (await res.json()) as Seen;
      expect(seen.method).toBe(method);
      expect(seen.body).toBe(JSON.stringify({ method }));
    }
    const head = await fetch(`${gateway.base}/api/leaderboard`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  test("dot segments are resolved before routing, so they cannot hop to another service", async () => {
    const before = upstreams.runner.seen.length;
    const res = await fetch(`${gateway.base}/api/leaderboard/../run`);
    expect(((await res.json()) as Seen).url).toBe("/api/run");
    expect(upstreams.runner.seen.length).toBe(before + 1);
  });
});

describe("routingTable from the environment", () => {
  test("defaults to 127.0.0.1 on each app's port; URLs override", async () => {
    const routes = routingTable(
      loadEnv({ LEADERBOARD_PORT: "4500", RUNNER_URL: "http://runner:3003" }),
    );
    const byName = Object.fromEntries(routes.map((r) => [r.upstream, r]));
    expect(byName.admissions?.target).toBe("http://127.0.0.1:3001");
    expect(byName.leaderboard?.target).toBe("http://127.0.0.1:4500");
    expect(byName.runner?.target).toBe("http://runner:3003");
    expect(byName.bench?.target).toBe("http://127.0.0.1:3004");
    expect(byName.admissions?.maxBodyBytes).toBe(11 * 1024 * 1024);
  });

  test("a bad upstream URL or timeout is a start-up error naming the variable", () => {
    expect(() => loadEnv({ RUNNER_URL: "ftp://x" })).toThrow(/RUNNER_URL/);
    expect(() => loadEnv({ GATEWAY_BENCH_TIMEOUT_MS: "fast" })).toThrow(/GATEWAY_BENCH_TIMEOUT_MS/);
  });

  test("routes whose app is not running answer 502 problem+json", async () => {
    const lonely = await startGateway([routeTo("runner", await deadTarget(), ["/api/run"])]);
    const res = await fetch(`${lonely.base}/api/run`, { method: "POST", body: "{}" });
    expect(res.status).toBe(502);
    expect(await problemOf(res)).toMatchObject({ code: "BAD_GATEWAY", status: 502 });
    await lonely.stop();
  });
});
