#!/usr/bin/env bun
/**
 * Benchmark of the benchmark. In one run, for each type: the kernel under mitata (the harness
 * Bun's docs recommend), each time in a fresh process (mitata-kernel.ts), `--mitata-runs` times,
 * and the same kernel through POST /api/benchmark of a real bench app started here (a child
 * process on a free loopback port), `--repeats` times back to back, between the mitata runs.
 * mitata's reference is the median of its processes' figures.
 * Prints the per-iteration times, their ratio, and the spread of the endpoint's repeated runs;
 * exits 1 when a target is missed (ratio within ±10%, every run within ±10% of their median).
 * Loopback only; about 70 s on two cores.
 *
 *   bun benchmarks/bench-accuracy/run.ts [--repeats 10] [--mitata-runs 3]   # mitata: a root dev dependency
 *
 * Both sides import the kernels from the app, so they time the very same code.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  BENCHMARK_TYPES,
  type BenchmarkResult,
  type BenchmarkType,
} from "../../packages/contracts/src/benchmark.ts";
import { freePort, waitForHttp } from "../../packages/server/test/support/ports.ts";
import { median } from "../stats.ts";

const { values } = parseArgs({
  options: {
    repeats: { type: "string", default: "10" },
    "mitata-runs": { type: "string", default: "3" },
  },
});
const repeats = Number(values.repeats);
const mitataRuns = Math.max(1, Number(values["mitata-runs"]));
const TOLERANCE = 0.1;
const root = join(import.meta.dir, "../..");

/** mitata's statistics for one kernel, in microseconds, from a fresh process. */
async function underMitata(type: BenchmarkType) {
  const proc = Bun.spawn(["bun", join(import.meta.dir, "mitata-kernel.ts"), type], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const output = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`mitata failed for ${type}`);
  const stats = JSON.parse(output) as { avg: number; p50: number };
  return { avg: stats.avg / 1_000, p50: stats.p50 / 1_000 };
}

async function startApp() {
  const port = await freePort();
  const proc = Bun.spawn(["bun", "apps/bench/src/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      BENCH_PORT: String(port),
      HOST: "127.0.0.1",
      // Every request of the harness comes from one address; lift the limit for it alone.
      BENCH_RATE_LIMIT: "100000",
      LOG_LEVEL: "warn",
      REDIS_URL: "",
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health/live`);
  return { url, stop: () => proc.kill("SIGTERM") };
}

async function throughEndpoint(url: string, type: BenchmarkType): Promise<BenchmarkResult> {
  const response = await fetch(`${url}/api/benchmark`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type }),
  });
  if (response.status !== 200)
    throw new Error(`${type}: ${response.status} ${await response.text()}`);
  return (await response.json()) as BenchmarkResult;
}

const mean = (values: number[]) => values.reduce((sum, x) => sum + x, 0) / values.length;
const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
const cell = (x: number, digits = 3) => x.toFixed(digits).padStart(9);
const loads = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

console.log(`bun ${Bun.version}, ${cpus()[0]?.model ?? "unknown CPU"} ×${cpus().length}`);
console.log(`load average at start: ${loads()}`);
const app = await startApp();
const rows: string[] = [];
let missed = 0;
try {
  for (const type of BENCHMARK_TYPES) {
    // mitata's figure moves by several percent from one process to the next on a shared host,
    // so the reference is the median of a few processes, half before and half after the
    // endpoint's runs. Those stay back to back: the host's speed drifts over seconds.
    const references: { avg: number; p50: number }[] = [];
    for (let m = 0; m < Math.ceil(mitataRuns / 2); m++) references.push(await underMitata(type));
    const runs: BenchmarkResult[] = [];
    for (let n = 0; n < repeats; n++) runs.push(await throughEndpoint(app.url, type));
    while (references.length < mitataRuns) references.push(await underMitata(type));
    const reference = {
      avg: median(references.map((r) => r.avg)),
      p50: median(references.map((r) => r.p50)),
    };
    const perIteration = runs.map((result) => result.executionTime / result.iterations);
    const typical = median(perIteration);
    const ratio = typical / reference.p50;
    const deviations = perIteration.map((x) => x / typical - 1);
    const spread = Math.max(...deviations.map(Math.abs));
    const ok = Math.abs(ratio - 1) <= TOLERANCE && spread <= TOLERANCE;
    if (!ok) missed++;
    const list = (values: (number | undefined)[]) => values.map((x) => x?.toFixed(3)).join(" ");
    console.log(
      `\n${type}: mitata p50 of each process (µs):            ${list(references.map((r) => r.p50))}`,
    );
    console.log(`${type}: executionTime / iterations of each run (µs): ${list(perIteration)}`);
    console.log(
      `${type}: perIteration.median of each run (µs):        ${list(runs.map((r) => r.perIteration?.median))}`,
    );
    console.log(
      `${type}: attempts of each run:                         ${runs.map((r) => r.attempts ?? 1).join(" ")}`,
    );
    rows.push(
      [
        type.padEnd(7),
        cell(reference.avg),
        cell(reference.p50),
        cell(mean(perIteration)),
        cell(typical),
        cell(ratio),
        cell(mean(perIteration) / reference.avg),
        `  ${pct(Math.min(...deviations))} .. ${pct(Math.max(...deviations))}`.padEnd(18),
        ok ? "ok" : "MISSED",
      ].join(""),
    );
  }
} finally {
  app.stop();
}

console.log(`
Per-iteration times in µs. mitata: its avg and p50 over batches of calls. endpoint: over ${repeats}
runs of executionTime / iterations, their mean and median. The target ratio is median / p50
(typical against typical, both robust to a batch or run slowed by other work on the machine);
mean / avg is printed beside it. Spread: each run against the median of the runs.`);
console.log(
  "type    mitata avg mitata p50 endp mean endp median  ratio  mean/avg  spread            target ±10%",
);
for (const row of rows) console.log(row);
console.log(`load average at end: ${loads()}`);
console.log(missed === 0 ? "all targets met" : `${missed} type(s) missed a target`);
process.exit(missed === 0 ? 0 : 1);
