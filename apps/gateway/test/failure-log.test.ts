/** The gateway's log says why an upstream failed: refused, reset or timeout, per attempt. */
import { afterEach, describe, expect, test } from "bun:test";
import { metricValue } from "@platform/server/testing";
import { capturingLogger, replica } from "./replicas.ts";
import { routeTo, startGateway } from "./support.ts";

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

async function gatewayTo(target: string, timeoutMs = 5_000) {
  const log = capturingLogger();
  const route = routeTo("leaderboard", target, ["/api/leaderboard"], { timeoutMs });
  const gateway = await startGateway([route], "none", { logger: log.logger });
  cleanups.push(gateway.stop);
  return { url: `${gateway.base}/api/leaderboard`, log };
}

describe("why an upstream failed, in the log", () => {
  test("nothing listening: refused, in the failure line and in the 502's access-log line", async () => {
    const gone = replica();
    gone.stop();
    const { url, log } = await gatewayTo(gone.target);
    const res = await fetch(url);
    expect(res.status).toBe(502);
    const requestId = res.headers.get("x-request-id");
    const [failure] = log.messages("upstream failed");
    expect(failure).toMatchObject({
      upstream: "leaderboard",
      replica: gone.target,
      kind: "refused",
      reason: "ECONNREFUSED",
      requestId,
    });
    await Bun.sleep(20);
    const access = log.messages("request").find((line) => line.requestId === requestId);
    expect(access).toMatchObject({ status: 502, problem: "BAD_GATEWAY", reason: "ECONNREFUSED" });
  });

  test("an upstream slower than the route's deadline: timeout, and a 504 saying so", async () => {
    const slow = replica({ delayMs: 1_000 });
    cleanups.push(slow.stop);
    const { url, log } = await gatewayTo(slow.target, 100);
    const res = await fetch(url);
    expect(res.status).toBe(504);
    expect(log.messages("upstream failed")[0]).toMatchObject({
      kind: "timeout",
      reason: "timeout",
    });
  });

  test("a connection closed before any response: reset", async () => {
    // A raw TCP server that reads the request and hangs up without answering.
    const rude = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data: (socket) => {
          socket.end();
        },
      },
    });
    cleanups.push(() => rude.stop(true));
    const { url, log } = await gatewayTo(`http://127.0.0.1:${rude.port}`);
    expect((await fetch(url)).status).toBe(502);
    expect(log.messages("upstream failed")[0]?.kind).toBe("reset");
  });
});

describe("per-upstream metrics", () => {
  test("latency by upstream and status; failed attempts by kind", async () => {
    const { createMetrics } = await import("@platform/server");
    const metrics = createMetrics("gateway");
    const up = replica();
    const gone = replica();
    gone.stop();
    cleanups.push(up.stop);
    const gateway = await startGateway(
      [
        routeTo("leaderboard", up.target, ["/api/leaderboard"]),
        routeTo("bench", gone.target, ["/api/benchmark"]),
      ],
      "none",
      { metrics, healthIntervalMs: 600_000 },
    );
    cleanups.push(gateway.stop);
    expect((await fetch(`${gateway.base}/api/leaderboard`)).status).toBe(200);
    expect((await fetch(`${gateway.base}/api/benchmark`)).status).toBe(502);
    const text = await metrics.registry.metrics();
    expect(
      metricValue(
        text,
        "gateway_upstream_duration_seconds_count",
        'upstream="leaderboard"',
        'status="200"',
      ),
    ).toBe("1");
    expect(
      metricValue(text, "gateway_upstream_failures_total", 'upstream="bench"', 'kind="refused"'),
    ).toBe("1");
  });
});

describe("a replica that dies mid-request (the connection reset before any answer)", () => {
  /**
   * A raw TCP server that reads a request and hangs up; counts the requests it took. Its
   * readiness probe answers 200, as a replica that dies mid-request passed its last check: the
   * gateway's first check, at start, would otherwise race the test's first request.
   */
  function rudeReplica() {
    let seen = 0;
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data: (socket, data) => {
          if (data.toString("latin1").startsWith("GET /health/ready ")) {
            socket.end("HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
            return;
          }
          seen++;
          socket.end();
        },
      },
    });
    cleanups.push(() => server.stop(true));
    return { target: `http://127.0.0.1:${server.port}`, seen: () => seen };
  }

  async function pair() {
    const rude = rudeReplica();
    const good = replica();
    cleanups.push(good.stop);
    const gateway = await startGateway(
      [routeTo("leaderboard", `${rude.target},${good.target}`, ["/api/leaderboard"])],
      "none",
      { healthIntervalMs: 600_000 },
    );
    cleanups.push(gateway.stop);
    return { rude, good, url: `${gateway.base}/api/leaderboard` };
  }

  test("a GET is sent once more to another replica: the client sees no failure", async () => {
    const { rude, url } = await pair();
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await fetch(url)).status);
    expect(statuses).toEqual([200, 200]);
    // It was tried (Bun's client may itself reconnect once before giving up on it).
    expect(rude.seen()).toBeGreaterThanOrEqual(1);
  });

  test("a POST without Idempotency-Key is not replayed: one 502; with the key it is", async () => {
    const { url } = await pair();
    const post = () =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const statuses = [(await post()).status, (await post()).status].sort();
    expect(statuses).toEqual([200, 502]);
    const keyed = await pair();
    const sendKeyed = () =>
      fetch(keyed.url, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "k-1" },
        body: "{}",
      });
    expect([(await sendKeyed()).status, (await sendKeyed()).status]).toEqual([200, 200]);
  });
});
