/**
 * The supervisor of `bun run start` (supervise.ts, start.ts) with real apps: one killed with
 * SIGKILL is restarted while the other keeps serving; repeated crashes wait longer; SIGTERM
 * stops everything. Run by `bun run check` in its smoke step (SMOKE=1), once: the supervisor
 * does not depend on the backends.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort, waitForHttp } from "../packages/server/test/support/ports.ts";
import { DEFAULT_BACKOFF, restartDelay } from "./supervise.ts";

const enabled = process.env.SMOKE === "1" && !process.env.DATABASE_URL;
const root = join(import.meta.dir, "..");

describe("restartDelay", () => {
  test("doubles with each failure in a row from 500 ms, and stops at 30 s", () => {
    const delays = [1, 2, 3, 4, 6, 7, 8, 20].map((n) => restartDelay(n, DEFAULT_BACKOFF));
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 16_000, 30_000, 30_000, 30_000]);
  });
});

describe.skipIf(!enabled)("bun run start's supervisor, with leaderboard and bench", async () => {
  const ports = { LEADERBOARD_PORT: await freePort(), BENCH_PORT: await freePort() };
  const leaderboard = `http://127.0.0.1:${ports.LEADERBOARD_PORT}`;
  const bench = `http://127.0.0.1:${ports.BENCH_PORT}`;
  let log = "";
  const supervisor = Bun.spawn(
    ["bun", "scripts/start.ts", "start", "--only", "leaderboard,bench"],
    {
      cwd: root,
      env: {
        ...process.env,
        LEADERBOARD_PORT: String(ports.LEADERBOARD_PORT),
        BENCH_PORT: String(ports.BENCH_PORT),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        REDIS_URL: "",
      },
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of supervisor.stderr) log += decoder.decode(chunk, { stream: true });
  })();
  afterAll(() => {
    supervisor.kill("SIGKILL");
  });

  /** The pids the supervisor said it started `app` with, in order. */
  const pidsOf = (app: string) =>
    [...log.matchAll(new RegExp(`supervisor \\| ${app} started \\(pid (\\d+)\\)`, "g"))].map((m) =>
      Number(m[1]),
    );
  const until = async (what: string, ok: () => boolean, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${log}`);
      await Bun.sleep(50);
    }
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  test("an app killed with SIGKILL is restarted and logged; the other kept serving", async () => {
    await waitForHttp(`${leaderboard}/health/ready`, 30_000);
    await waitForHttp(`${bench}/health/ready`, 30_000);
    const [first] = pidsOf("leaderboard");
    expect(first).toBeNumber();
    process.kill(first ?? 0, "SIGKILL");
    // While the leaderboard is away, bench answers every time.
    const statuses: number[] = [];
    await until("a second leaderboard", () => {
      void fetch(`${bench}/health/live`).then((r) => statuses.push(r.status));
      return pidsOf("leaderboard").length === 2;
    });
    await waitForHttp(`${leaderboard}/health/ready`, 30_000);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(log).toContain("leaderboard was killed by SIGKILL after");
    expect(log).toContain("restarting in 500 ms (failure 1 in a row); the other apps keep running");
    const posted = await fetch(`${leaderboard}/api/leaderboard`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ playerName: "after-crash", score: 7 }),
    });
    expect(posted.status).toBe(201);
    expect(pidsOf("bench")).toHaveLength(1);
  }, 60_000);

  test("a second crash soon after waits twice as long before the restart", async () => {
    const [, second] = pidsOf("leaderboard");
    process.kill(second ?? 0, "SIGKILL");
    await until("a third leaderboard", () => pidsOf("leaderboard").length === 3);
    expect(log).toContain("restarting in 1000 ms (failure 2 in a row)");
    await waitForHttp(`${leaderboard}/health/ready`, 30_000);
  }, 60_000);

  test("SIGTERM stops every app and the supervisor exits 0", async () => {
    const pids = [...pidsOf("leaderboard"), ...pidsOf("bench")];
    supervisor.kill("SIGTERM");
    expect(await supervisor.exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(log).toContain("SIGTERM: stopping every app");
  }, 60_000);
});
