#!/usr/bin/env bun
/**
 * The runner beside its peers, in one run, with the same trivial program:
 * - the floor: `bun <file>` (spawn, run, exit, output read), one at a time and, for throughput,
 *   as many at once as the runner is driven with;
 * - Deno: `deno run <file>` with no permissions (the npm package `deno`, installed into
 *   benchmarks/runner/peers on first use);
 * - a real runner (a child process on a free loopback port, every sandbox layer on, checked)
 *   driven through HTTP at concurrency 1, 2 and 4 by one client (whose runs soon go to a
 *   sandbox kept for it, docs/runner.md "Sandboxes reused by one client", and whose program's
 *   verdict is then the checker's cache's); then at 1 by that client with a new program every
 *   run (the same output; no cached verdict); then at 1 and 2 by a new client every run (each
 *   run a sandbox of its own, as the first run of anyone).
 * For each: p50/p99 latency, runs per second, and the machine's CPU time per run (all processes
 * and the kernel, from /proc/stat: bubblewrap, the namespaces' teardown, the client and the
 * runner all count). Targets (issue 11): runner p50 at concurrency 1 ≤ 1.5 × the floor's; CPU
 * per run ≤ 2 × the floor's; ≥ 250 runs/s at the best concurrency. Exits 1 when one is missed.
 * Loopback only, bounded in count and time: about a minute on two cores.
 *
 *   bun benchmarks/runner/run.ts [--runs 300] [--floor-runs 200] [--hostile]
 *
 * `--hostile` runs hostile.ts instead: bombs from several clients while one client measures.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { machineBusyMs, ms, percentile, postRun, startRunner } from "./support.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "300" },
    "floor-runs": { type: "string", default: "200" },
    hostile: { type: "boolean", default: false },
  },
});
if (values.hostile) {
  await import("./hostile.ts");
  process.exit(0);
}
const RUNS = Number(values.runs);
const FLOOR_RUNS = Number(values["floor-runs"]);
const CONCURRENCY = [1, 2, 4];
const PROGRAM = 'console.log("hello")';
/** A level stops early past this, whatever its count: the benchmark must end by itself. */
const LEVEL_TIME_LIMIT_MS = 30_000;

type Level = {
  name: string;
  concurrency: number;
  p50: number;
  p99: number;
  runsPerSecond: number;
  cpuPerRun: number;
  failed: number;
};

/** `count` calls of `once` by `concurrency` workers, after `warmup` uncounted ones. */
async function measure(
  name: string,
  concurrency: number,
  count: number,
  once: () => Promise<{ ok: boolean; ms: number }>,
  warmup = 10,
): Promise<Level> {
  // Warmed up at the level's own concurrency: a runner keeps as many sandboxes for a client as
  // it runs at once (kept.ts), and the first runs at a new concurrency start them.
  let warmed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (warmed++ < warmup) await once();
    }),
  );
  const times: number[] = [];
  let failed = 0;
  let issued = 0;
  const cpuBefore = machineBusyMs();
  const started = performance.now();
  const worker = async () => {
    while (issued < count && performance.now() - started < LEVEL_TIME_LIMIT_MS) {
      issued++;
      const result = await once();
      if (result.ok) times.push(result.ms);
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = machineBusyMs() - cpuBefore;
  times.sort((a, b) => a - b);
  return {
    name,
    concurrency,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    runsPerSecond: times.length / seconds,
    cpuPerRun: cpu / Math.max(1, issued),
    failed,
  };
}

/** One process per run: spawn `cmd`, read its output, wait for its exit. */
function spawnOnce(cmd: string[], env: Record<string, string>) {
  return async () => {
    const started = performance.now();
    const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "ignore", env });
    const output = await new Response(proc.stdout).text();
    const code = await proc.exited;
    return { ok: code === 0 && output === "hello\n", ms: performance.now() - started };
  };
}

const peersDir = join(import.meta.dir, "peers");
/** The Deno binary of the npm package `deno` (its platform package), installed on first use. */
function denoBinary(): string | null {
  const binary = join(peersDir, "node_modules/@deno/linux-x64-glibc/deno");
  if (!existsSync(binary)) {
    const install = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile"], {
      cwd: peersDir,
      stdout: "ignore",
      stderr: "inherit",
    });
    if (install.exitCode !== 0) return null;
  }
  return existsSync(binary) ? binary : null;
}

const show = (level: Level) =>
  `${level.name.padEnd(24)} c=${level.concurrency}  p50 ${ms(level.p50).padStart(9)}  p99 ${ms(level.p99).padStart(9)}  ${level.runsPerSecond.toFixed(1).padStart(6)} runs/s  CPU ${ms(level.cpuPerRun).padStart(9)}/run${level.failed ? `  (${level.failed} failed)` : ""}`;

console.log(
  `runner benchmark: ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(`program: ${PROGRAM}; ${RUNS} runs per runner level; ${FLOOR_RUNS} per peer level\n`);

const dir = mkdtempSync(join(tmpdir(), "runner-floor-"));
const file = join(dir, "trivial.mjs");
writeFileSync(file, `${PROGRAM}\n`);
const levels: Level[] = [];
const print = (level: Level) => {
  levels.push(level);
  console.log(show(level));
};
try {
  const bun = spawnOnce([process.execPath, file], {});
  print(await measure("floor: bun <file>", 1, FLOOR_RUNS, bun));
  print(await measure("floor: bun <file>", 2, FLOOR_RUNS, bun));
  const deno = denoBinary();
  if (deno) {
    const denoEnv = { DENO_DIR: join(dir, "deno"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
    print(await measure("deno run <file>", 1, FLOOR_RUNS, spawnOnce([deno, "run", file], denoEnv)));
  } else console.log("deno: not installed (bun install in benchmarks/runner/peers failed)");
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const runner = await startRunner({
  // The benchmark is one client; the per-client limits would otherwise stop it.
  RUNNER_RATE_LIMIT: "1000000",
  RUNNER_CLIENT_MAX_RUNS: "64",
  RUNNER_CLIENT_SANDBOX_MS: "3600000",
});
const off = Object.entries(runner.layers).filter(([, layer]) => !layer.on);
console.log(
  `runner layers: ${off.length === 0 ? "all on" : `OFF: ${off.map(([name]) => name).join(", ")}`}`,
);
const post = async (client?: string, program = PROGRAM) => {
  const answer = await postRun(runner.url, program, client ? { client } : {});
  return {
    ok: answer.status === 200 && answer.output === "hello\n" && !answer.error,
    ms: answer.ms,
  };
};
/** A new client address for every run (the runner trusts X-Forwarded-For from loopback). */
let clients = 0;
const newClient = () => {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};
try {
  for (const concurrency of CONCURRENCY) {
    // 50 warm-up runs: at a new concurrency the runner starts a sandbox for each run the client
    // has going (kept.ts), one after another as runs find the others busy.
    print(await measure("runner (HTTP)", concurrency, RUNS, () => post(), 50));
  }
  let programs = 0;
  const newProgram = () => `${PROGRAM} // ${++programs}`;
  print(await measure("runner, new program/run", 1, RUNS, () => post(undefined, newProgram()), 20));
  for (const concurrency of [1, 2]) {
    const level = await measure(
      "runner, new client/run",
      concurrency,
      RUNS,
      () => post(newClient()),
      20,
    );
    print(level);
  }
} finally {
  await runner.stop();
}

const floor1 = levels.find((level) => level.name.startsWith("floor") && level.concurrency === 1);
const denoLevel = levels.find((level) => level.name.startsWith("deno"));
// The targets are the one client's (the benchmark's trivial runs); the new-client levels show the
// cold path beside them.
const runnerLevels = levels.filter((level) => level.name === "runner (HTTP)");
const single = runnerLevels[0];
const best = Math.max(...runnerLevels.map((level) => level.runsPerSecond));
const latency = single && floor1 ? single.p50 / floor1.p50 : Number.NaN;
const cpu = single && floor1 ? single.cpuPerRun / floor1.cpuPerRun : Number.NaN;
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
console.log(
  `\nrunner p50 / floor p50 at c=1 = ${latency.toFixed(2)} (target ≤ 1.5): ${verdict(latency <= 1.5)}`,
);
console.log(
  `runner CPU / floor CPU per run at c=1 = ${cpu.toFixed(2)} (target ≤ 2): ${verdict(cpu <= 2)}`,
);
console.log(
  `runner best throughput ${best.toFixed(1)} runs/s (target ≥ 250): ${verdict(best >= 250)}`,
);
if (denoLevel && single) {
  console.log(
    `deno p50 / runner p50 at c=1 = ${(denoLevel.p50 / single.p50).toFixed(2)} (the runner is that many times faster)`,
  );
}
const failures = levels.reduce((sum, level) => sum + level.failed, 0);
if (failures > 0) console.log(`${failures} runs failed`);
const ok = latency <= 1.5 && cpu <= 2 && best >= 250 && failures === 0 && off.length === 0;
process.exit(ok ? 0 : 1);
