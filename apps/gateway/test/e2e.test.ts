import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort, problemOf, waitForHttp } from "@platform/server/testing";
import type { Subprocess } from "bun";

// The real apps, started the way `bun run start` starts them, talking over real ports.
const appsDir = join(import.meta.dir, "../..");
const ports = { gateway: await freePort(), leaderboard: await freePort(), dead: await freePort() };
const procs: Subprocess<"ignore", "pipe", "inherit">[] = [];

function start(app: string, env: Record<string, string>) {
  const proc = Bun.spawn(["bun", "run", "start"], {
    cwd: join(appsDir, app),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      ...env,
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  procs.push(proc);
  return proc;
}

const leaderboard = start("leaderboard", {
  LEADERBOARD_PORT: String(ports.leaderboard),
  LEADERBOARD_RATE_LIMIT: "3",
  ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
});
const gateway = start("gateway", {
  GATEWAY_PORT: String(ports.gateway),
  LEADERBOARD_PORT: String(ports.leaderboard),
  ADMISSIONS_PORT: String(ports.dead),
  RUNNER_PORT: String(ports.dead),
  BENCH_PORT: String(ports.dead),
});
const base = `http://127.0.0.1:${ports.gateway}`;
await waitForHttp(`${base}/gateway/live`);
await waitForHttp(`http://127.0.0.1:${ports.leaderboard}/health/live`);

afterAll(async () => {
  for (const proc of procs) proc.kill("SIGTERM");
  await Promise.all(procs.map((proc) => proc.exited));
});

const submit = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/leaderboard`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("end to end through the gateway", () => {
  test("a score posted through the gateway is on the board read through it", async () => {
    const res = await submit(
      { playerName: "e2e-player", score: 123 },
      { "x-request-id": "e2e-trace-1" },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("e2e-trace-1");
    const board = (await (await fetch(`${base}/api/leaderboard`)).json()) as {
      playerName: string;
    }[];
    expect(board.map((e) => e.playerName)).toContain("e2e-player");
  });

  test("bad input is answered by the app as problem+json through the gateway", async () => {
    const res = await fetch(`${base}/api/leaderboard`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"playerName":',
    });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).code).toBe("MALFORMED_JSON");
  });

  test("a spoofed X-Forwarded-For changes nothing: the per-IP limit counts the real client", async () => {
    // Two POSTs were made above, a valid and a malformed one (both count); the limit is 3 per
    // minute for 127.0.0.1, whatever it claims to be.
    const allowed = await submit({ playerName: "a", score: 1 }, { "x-forwarded-for": "1.1.1.1" });
    expect(allowed.status).toBe(201);
    const refused = await submit({ playerName: "b", score: 1 }, { "x-forwarded-for": "2.2.2.2" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
  });

  test("routes of apps that are not running answer 502, and health says which", async () => {
    for (const [method, path] of [
      ["POST", "/api/run"],
      ["POST", "/api/benchmark"],
      ["GET", "/api/v1/catalog/programs/"],
    ] as const) {
      const res = await fetch(base + path, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? "{}" : null,
      });
      expect(res.status).toBe(502);
    }
    const health = await fetch(`${base}/gateway/health`);
    expect(health.status).toBe(503);
    const problem = (await health.json()) as { upstreams: Record<string, { status: string }> };
    expect(problem.upstreams.leaderboard?.status).toBe("up");
    expect(problem.upstreams.runner?.status).toBe("down");
  });

  test("both processes log the request with the same request id, and stop cleanly on SIGTERM", async () => {
    await (
      await submit({ playerName: "traced", score: 2 }, { "x-request-id": "e2e-trace-2" })
    ).text();
    for (const proc of [gateway, leaderboard]) proc.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);
    expect(await leaderboard.exited).toBe(0);
    const logs = [
      await new Response(gateway.stdout).text(),
      await new Response(leaderboard.stdout).text(),
    ];
    for (const log of logs) {
      const line = log.split("\n").find((l) => l.includes('"requestId":"e2e-trace-2"'));
      expect(line).toBeDefined();
      expect(JSON.parse(line ?? "{}")).toMatchObject({
        msg: "request",
        method: "POST",
        path: "/api/leaderboard",
      });
    }
  });
});
