#!/usr/bin/env bun
/**
 * The runner against its floor, in one run. First the floor: the bare cost of `bun <file>` for a
 * trivial file (spawn, run, exit, output read), measured here. Then a real runner (a child
 * process on a free loopback port, every sandbox layer on) is driven through HTTP with the same
 * trivial program at concurrency 1, 2 and 4: p50/p99 latency and runs per second for each.
 * Prints whether the targets hold (p50 at concurrency 1 ≤ 1.5 × the floor's p50; ≥ 80 runs/s at
 * the best concurrency) and exits 1 when one is missed. Then, as information, one client pausing
 * between runs (the pool refilled, as at low load). Loopback only, bounded in count and time:
 * about 30 s on two cores.
 *
 *   bun benchmarks/runner/run.ts [--runs 300] [--floor-runs 200]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, waitForHttp } from "../../packages/server/test/support/ports.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "300" },
    "floor-runs": { type: "string", default: "200" },
  },
});
const RUNS = Number(values.runs);
const FLOOR_RUNS = Number(values["floor-runs"]);
const CONCURRENCY = [1, 2, 4];
const PAUSE_MS = 50;
const PROGRAM = 'console.log("hello")';
/** A level stops early past this, whatever its count: the benchmark must end by itself. */
const LEVEL_TIME_LIMIT_MS = 30_000;
const root = join(import.meta.dir, "../..");

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The floor: spawn `bun <file>`, read its output, wait for its exit. */
async function floor(): Promise<{ p50: number; p99: number }> {
  const dir = mkdtempSync(join(tmpdir(), "runner-floor-"));
  const file = join(dir, "trivial.mjs");
  writeFileSync(file, `${PROGRAM}\n`);
  const times: number[] = [];
  try {
    for (let i = 0; i < FLOOR_RUNS + 10; i++) {
      const started = performance.now();
      const proc = Bun.spawn([process.execPath, file], {
        stdout: "pipe",
        stderr: "ignore",
        env: {},
      });
      await new Response(proc.stdout).text();
      await proc.exited;
      if (i >= 10) times.push(performance.now() - started); // the first ten warm the page cache
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function startRunner() {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, "apps/runner/src/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      RUNNER_PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      // The benchmark is one client; the per-IP limit would otherwise stop it at 60 a minute.
      RUNNER_RATE_LIMIT: "1000000",
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health/live`, 20_000);
  const ready = await fetch(`${url}/health/ready`);
  if (!ready.ok) throw new Error(`the runner is not ready: ${await ready.text()}`);
  const { layers } = (await ready.json()) as { layers: Record<string, { on: boolean }> };
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
  };
  return { url, layers, stop };
}

type Level = {
  concurrency: number;
  p50: number;
  p99: number;
  runsPerSecond: number;
  failed: number;
};

/** Back-to-back requests by `concurrency` clients, or one client pausing `pauseMs` between runs. */
async function level(url: string, concurrency: number, pauseMs = 0): Promise<Level> {
  const body = JSON.stringify({ code: PROGRAM });
  const post = async () => {
    const started = performance.now();
    const response = await fetch(`${url}/api/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const result = (await response.json()) as { output?: string; error?: string | null };
    const ok = response.ok && result.output === "hello\n" && result.error === null;
    return { ok, ms: performance.now() - started };
  };
  for (let i = 0; i < 20; i++) await post(); // warm-up, not counted
  const times: number[] = [];
  let failed = 0;
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    while (issued < RUNS && performance.now() - started < LEVEL_TIME_LIMIT_MS) {
      issued++;
      const { ok, ms: elapsed } = await post();
      if (ok) times.push(elapsed);
      else failed++;
      if (pauseMs > 0) await Bun.sleep(pauseMs);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    concurrency,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    runsPerSecond: times.length / seconds,
    failed,
  };
}

console.log(
  `runner benchmark: ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(`program: ${PROGRAM}; ${RUNS} runs per level; floor over ${FLOOR_RUNS} spawns\n`);

const floorStats = await floor();
console.log(`floor  bun <file>        p50 ${ms(floorStats.p50)}  p99 ${ms(floorStats.p99)}`);

const runner = await startRunner();
const off = Object.entries(runner.layers).filter(([, layer]) => !layer.on);
console.log(
  `layers: ${off.length === 0 ? "all on" : `OFF: ${off.map(([name]) => name).join(", ")}`}`,
);
const levels: Level[] = [];
try {
  for (const concurrency of CONCURRENCY) {
    const result = await level(runner.url, concurrency);
    levels.push(result);
    console.log(
      `runner concurrency ${concurrency}  p50 ${ms(result.p50)}  p99 ${ms(result.p99)}  ${result.runsPerSecond.toFixed(1)} runs/s${result.failed ? `  (${result.failed} failed)` : ""}`,
    );
  }
  // Not a target: what one client sees when the pool has time to refill between its runs.
  const paced = await level(runner.url, 1, PAUSE_MS);
  console.log(
    `runner paced (1 client, ${PAUSE_MS} ms between runs)  p50 ${ms(paced.p50)}  p99 ${ms(paced.p99)}`,
  );
} finally {
  await runner.stop();
}

const single = levels[0];
const best = Math.max(...levels.map((result) => result.runsPerSecond));
const ratio = single ? single.p50 / floorStats.p50 : Number.NaN;
const latencyOk = ratio <= 1.5;
const throughputOk = best >= 80;
const failures = levels.reduce((sum, result) => sum + result.failed, 0);
console.log(
  `\np50 at concurrency 1 / floor p50 = ${ratio.toFixed(2)} (target ≤ 1.5): ${latencyOk ? "met" : "MISSED"}`,
);
console.log(
  `best throughput ${best.toFixed(1)} runs/s (target ≥ 80): ${throughputOk ? "met" : "MISSED"}`,
);
if (failures > 0) console.log(`${failures} runs failed`);
process.exit(latencyOk && throughputOk && failures === 0 && off.length === 0 ? 0 : 1);
