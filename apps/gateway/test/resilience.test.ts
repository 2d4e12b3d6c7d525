import { afterAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { deadTarget, fakeUpstream, routeTo, type Seen, startGateway } from "./support.ts";

const stops: (() => unknown)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

describe("timeouts and failures", () => {
  test("an upstream slower than the route's timeout → 504 problem", async () => {
    const slow = fakeUpstream(async () => {
      await Bun.sleep(1_000);
      return new Response("late");
    });
    stops.push(() => slow.server.stop(true));
    const gateway = await startGateway([
      routeTo("runner", slow.target, ["/api/run"], { timeoutMs: 150 }),
    ]);
    stops.push(gateway.stop);
    const res = await fetch(`${gateway.base}/api/run`, { method: "POST", body: "{}" });
    expect(res.status).toBe(504);
    expect(await problemOf(res)).toMatchObject({
      code: "GATEWAY_TIMEOUT",
      detail: "runner did not answer within 150 ms",
    });
  });

  test("an upstream that is down → 502 problem+json within 100 ms", async () => {
    const gateway = await startGateway([routeTo("bench", await deadTarget(), ["/api/benchmark"])]);
    stops.push(gateway.stop);
    await fetch(`${gateway.base}/gateway/live`); // connection to the gateway itself is warm
    const started = performance.now();
    const res = await fetch(`${gateway.base}/api/benchmark`, {
      method: "POST",
      body: '{"type":"json"}',
    });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(502);
    const problem = await problemOf(res);
    expect(problem.code).toBe("BAD_GATEWAY");
    expect(JSON.stringify(problem)).not.toContain("127.0.0.1"); // no internal addresses leak
    expect(elapsed).toBeLessThan(100);
  });

  test("an upstream that drops the connection mid-request → 502", async () => {
    const rude = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          socket.end();
        },
      },
    });
    stops.push(() => rude.stop(true));
    const gateway = await startGateway([
      routeTo("leaderboard", `http://127.0.0.1:${rude.port}`, ["/api/leaderboard"]),
    ]);
    stops.push(gateway.stop);
    expect((await fetch(`${gateway.base}/api/leaderboard`)).status).toBe(502);
  });

  test("the gateway keeps connections to an upstream alive across requests", async () => {
    const upstream = fakeUpstream();
    stops.push(() => upstream.server.stop(true));
    const gateway = await startGateway([
      routeTo("leaderboard", upstream.target, ["/api/leaderboard"]),
    ]);
    stops.push(gateway.stop);
    for (let i = 0; i < 30; i++) await (await fetch(`${gateway.base}/api/leaderboard`)).json();
    const connections = new Set(upstream.seen.map((seen: Seen) => seen.peerPort));
    expect(connections.size).toBeLessThanOrEqual(2);
  });
});

describe("GET /gateway/health", () => {
  test("200 with every upstream up", async () => {
    const ready = fakeUpstream(() => Response.json({ status: "ok" }));
    stops.push(() => ready.server.stop(true));
    const gateway = await startGateway([
      routeTo("admissions", ready.target, ["/api/v1"]),
      routeTo("leaderboard", ready.target, ["/api/leaderboard"]),
    ]);
    stops.push(gateway.stop);
    const res = await fetch(`${gateway.base}/gateway/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      upstreams: Record<string, { status: string }>;
    };
    expect(body.status).toBe("ok");
    expect(body.upstreams.admissions?.status).toBe("up");
    expect(body.upstreams.leaderboard?.status).toBe("up");
  });

  test("503 problem naming each upstream that is down, not ready or too slow", async () => {
    const ready = fakeUpstream(() => Response.json({ status: "ok" }));
    const notReady = fakeUpstream(() => new Response("{}", { status: 503 }));
    const hanging = fakeUpstream(async () => {
      await Bun.sleep(2_000);
      return new Response("late");
    });
    stops.push(
      () => ready.server.stop(true),
      () => notReady.server.stop(true),
      () => hanging.server.stop(true),
    );
    const gateway = await startGateway([
      routeTo("admissions", notReady.target, ["/api/v1"]),
      routeTo("leaderboard", ready.target, ["/api/leaderboard"]),
      routeTo("runner", await deadTarget(), ["/api/run"]),
      routeTo("bench", hanging.target, ["/api/benchmark"]),
    ]);
    stops.push(gateway.stop);
    const res = await fetch(`${gateway.base}/gateway/health`);
    expect(res.status).toBe(503);
    const problem = (await problemOf(res)) as Awaited<ReturnType<typeof problemOf>> & {
      upstreams: Record<string, { status: string; httpStatus?: number; reason?: string }>;
    };
    expect(problem.code).toBe("UPSTREAM_UNHEALTHY");
    expect(problem.upstreams.leaderboard?.status).toBe("up");
    expect(problem.upstreams.admissions).toMatchObject({ status: "down", httpStatus: 503 });
    expect(problem.upstreams.runner).toMatchObject({ status: "down", reason: "unreachable" });
    expect(problem.upstreams.bench).toMatchObject({
      status: "down",
      reason: "no answer within 300 ms",
    });
    expect(problem.detail).toBe("Not ready: admissions, runner, bench");
  });

  test("/gateway/live answers whatever the upstreams do", async () => {
    const gateway = await startGateway([routeTo("runner", await deadTarget(), ["/api/run"])]);
    stops.push(gateway.stop);
    expect((await fetch(`${gateway.base}/gateway/live`)).status).toBe(200);
  });
});
