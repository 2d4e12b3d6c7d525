import { afterEach, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { loadEnv } from "../src/env.ts";
import { routingTable } from "../src/modules/proxy/routes.ts";
import { capturingLogger, type Replica, replica, targets, waitFor } from "./replicas.ts";
import { routeTo, startGateway } from "./support.ts";

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});
const stopAfter = (...replicas: Replica[]) => {
  for (const r of replicas) cleanups.push(r.stop);
  return replicas;
};

type HealthBody = {
  status: string;
  detail?: string;
  upstreams: Record<string, { status: string; replicas: Record<string, unknown>[] }>;
};

describe("active readiness checks", () => {
  test("a replica failing readiness takes no traffic, and rejoins when it passes", async () => {
    const [a, b] = stopAfter(replica(), replica());
    if (!a || !b) throw new Error("two replicas");
    const log = capturingLogger();
    const route = routeTo("leaderboard", targets(a, b), ["/api/leaderboard"]);
    const gateway = await startGateway([route], "none", {
      logger: log.logger,
      healthIntervalMs: 100,
    });
    cleanups.push(gateway.stop);
    const url = `${gateway.base}/api/leaderboard`;
    // Two probes after a change: the first was answered and taken before the second was sent.
    const nextChecks = async () => {
      const seen = b.probes;
      await waitFor(() => b.probes >= seen + 2);
    };

    b.ready = false;
    await nextChecks();
    for (let i = 0; i < 10; i++) expect((await fetch(url)).status).toBe(200);
    expect([a.seen.length, b.seen.length]).toEqual([10, 0]);
    expect(log.messages("replica not ready")[0]).toMatchObject({
      upstream: "leaderboard",
      replica: b.target,
      httpStatus: 503,
    });
    const health = (await (await fetch(`${gateway.base}/gateway/health`)).json()) as HealthBody;
    expect(health.upstreams.leaderboard?.replicas[1]).toMatchObject({ state: "not-ready" });

    b.ready = true;
    await nextChecks();
    for (let i = 0; i < 10; i++) expect((await fetch(url)).status).toBe(200);
    expect(b.seen.length).toBe(5);
    expect(log.messages("replica recovered")[0]).toMatchObject({ replica: b.target });
  });

  test("a route with one URL gets no background checks (nothing to steer around)", async () => {
    const [only] = stopAfter(replica());
    if (!only) throw new Error("one replica");
    const gateway = await startGateway(
      [routeTo("leaderboard", only.target, ["/api/leaderboard"])],
      "none",
      { healthIntervalMs: 100 },
    );
    cleanups.push(gateway.stop);
    await Bun.sleep(350);
    expect(only.probes).toBe(0);
  });
});

describe("GET /gateway/health with replicas", () => {
  test("lists every replica with its state, readiness and outstanding requests", async () => {
    const [up, notReady, dead, slow] = stopAfter(replica(), replica(), replica(), replica());
    if (!up || !notReady || !dead || !slow) throw new Error("four replicas");
    notReady.ready = false;
    slow.delayMs = 300;
    const gateway = await startGateway(
      [
        routeTo("leaderboard", targets(up, notReady, dead), ["/api/leaderboard"]),
        routeTo("runner", slow.target, ["/api/run"]),
      ],
      "none",
      { healthIntervalMs: 600_000 },
    );
    cleanups.push(gateway.stop);
    dead.stop();
    const running = fetch(`${gateway.base}/api/run`, { method: "POST", body: "{}" });
    await waitFor(() => slow.seen.length === 1);

    const res = await fetch(`${gateway.base}/gateway/health`);
    const text = await res.text();
    expect(res.status).toBe(200); // every upstream can serve
    expect(text).not.toContain("127.0.0.1"); // replicas are named by position, not address
    const body = JSON.parse(text) as HealthBody;
    expect(body.upstreams.leaderboard?.status).toBe("up");
    expect(body.upstreams.leaderboard?.replicas).toMatchObject([
      { replica: 1, state: "up", outstanding: 0, readiness: { status: "up", httpStatus: 200 } },
      { replica: 2, readiness: { status: "down", httpStatus: 503, reason: "not ready" } },
      { replica: 3, readiness: { status: "down", reason: "unreachable" } },
    ]);
    expect(body.upstreams.runner?.replicas).toMatchObject([
      { replica: 1, state: "up", outstanding: 1 },
    ]);
    expect((await running).status).toBe(200);
  });

  test("an ejected replica shows until when; an upstream with none ready is a 503", async () => {
    const [a, b] = stopAfter(replica(), replica());
    if (!a || !b) throw new Error("two replicas");
    const gateway = await startGateway(
      [routeTo("bench", targets(a, b), ["/api/benchmark"])],
      "none",
      { healthIntervalMs: 600_000 },
    );
    cleanups.push(gateway.stop);
    await waitFor(() => a.probes > 0 && b.probes > 0);
    await fetch(`${gateway.base}/gateway/live`);
    b.stop();
    for (let i = 0; i < 2; i++) await fetch(`${gateway.base}/api/benchmark`);
    const served = await fetch(`${gateway.base}/gateway/health`);
    expect(served.status).toBe(200); // one replica is enough to serve
    const body = (await served.json()) as HealthBody;
    expect(body.upstreams.bench?.replicas[1]).toMatchObject({ state: "ejected" });

    a.ready = false;

    const res = await fetch(`${gateway.base}/gateway/health`);
    expect(res.status).toBe(503);
    const problem = (await problemOf(res)) as unknown as HealthBody;
    expect(problem.detail).toBe("Not ready: bench");
    const [first, second] = problem.upstreams.bench?.replicas ?? [];
    expect(first).toMatchObject({ state: "up", readiness: { status: "down", httpStatus: 503 } });
    expect(second).toMatchObject({ state: "ejected", readiness: { reason: "unreachable" } });
    const until = Date.parse(String(second?.ejectedUntil));
    expect(until).toBeGreaterThan(Date.now());
  });
});

describe("replica lists in the environment", () => {
  test("each *_URL takes one URL or several comma-separated; one is today's table", () => {
    const env = loadEnv({ RUNNER_URL: "http://runner-1:3003/, http://runner-2:3003" });
    const runner = routingTable(env).find((route) => route.upstream === "runner");
    expect(runner?.target).toBe("http://runner-1:3003,http://runner-2:3003");
    expect(() => loadEnv({ RUNNER_URL: "http://a:1,ftp://b" })).toThrow(/RUNNER_URL/);
    expect(() => loadEnv({ RUNNER_URL: "http://a:1," })).toThrow(/RUNNER_URL/);
    const admissions = routingTable(env).find((route) => route.upstream === "admissions");
    expect(admissions?.readyPath).toBe("/health/ready/");
  });

  test("GATEWAY_HEALTH_INTERVAL_MS defaults to 5000 and refuses nonsense", () => {
    expect(loadEnv({}).GATEWAY_HEALTH_INTERVAL_MS).toBe(5_000);
    expect(loadEnv({ GATEWAY_HEALTH_INTERVAL_MS: "250" }).GATEWAY_HEALTH_INTERVAL_MS).toBe(250);
    for (const bad of ["10", "often", "-1"]) {
      expect(() => loadEnv({ GATEWAY_HEALTH_INTERVAL_MS: bad })).toThrow(
        /GATEWAY_HEALTH_INTERVAL_MS/,
      );
    }
  });
});
