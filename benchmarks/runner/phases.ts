#!/usr/bin/env bun
/**
 * Where a sandbox's time goes, variant by variant, interleaved round-robin so that load from
 * other work on the machine hits every variant alike. For each: wall time from spawn to the
 * harness's "ready", from closing standard input to its last word, to the process's exit; and,
 * in a second sample under `perf stat` (when installed), the CPU time of the whole process tree,
 * namespaces included (wait4's figures miss the processes bubblewrap starts). Medians over
 * --rounds.
 *
 * The last line is a reusable sandbox's later runs (a fresh worker each, docs/runner.md
 * "Sandboxes reused by one client"): wall time from the go to the next worker's "ready", and
 * the sandbox process's CPU per run, means over ten times --rounds runs.
 *
 *   bun benchmarks/runner/phases.ts [--rounds 60] [--only <part of a variant's name>]
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  INFO_FD,
  PROGRAM_FILE,
  type SandboxSpec,
  sandboxCommand,
} from "../../apps/runner/src/sandbox/command.ts";
import { buildHarness } from "../../apps/runner/src/sandbox/harness.ts";
import { GO_LINE, parseControlLine } from "../../apps/runner/src/sandbox/protocol.ts";
import { admit, pidFromInfo, processUsage } from "../../apps/runner/src/sandbox/readiness.ts";
import { defaultLimits } from "../../apps/runner/src/sandbox/setup.ts";
import { bunLibraries } from "../../apps/runner/src/sandbox/visible-files.ts";
import { median } from "../stats.ts";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "60" }, only: { type: "string", default: "" } },
});
const ROUNDS = Number(values.rounds);
const PROGRAM = 'console.log("hello")\n';

const root = join(tmpdir(), `runner-phases-${process.pid}`);
const harnessDir = await buildHarness(join(root, "harness"));
const bunPath = process.execPath;
const bwrapPath = Bun.which("bwrap");
const trivial = join(root, "trivial.mjs");
writeFileSync(trivial, PROGRAM);

type Sample = { ready: number; run: number; exit: number; cpu: number };
type Variant = { name: string; sample: (measureCpu: boolean) => Promise<Sample> };

const perfPath = Bun.which("perf");
/** `cmd` under `perf stat`, which counts the task-clock of every process the command starts. */
function withCpuCount(cmd: string[]): { cmd: string[]; cpuMs: () => number } {
  if (!perfPath) return { cmd, cpuMs: () => Number.NaN };
  const out = join(root, `perf-${Bun.randomUUIDv7().slice(-12)}.csv`);
  return {
    cmd: [perfPath, "stat", "-x", ",", "-e", "task-clock", "-o", out, "--", ...cmd],
    cpuMs() {
      const line = readFileSync(out, "utf8")
        .split("\n")
        .find((row) => row.includes("task-clock"));
      rmSync(out, { force: true });
      return Number(line?.split(",")[0] ?? Number.NaN);
    },
  };
}

/** Reads a sandbox's standard error one line (one control message) at a time. */
function lineReader(stderr: ReadableStream<Uint8Array<ArrayBuffer>>): () => Promise<string> {
  const lines = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  return async () => {
    while (!pending.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`sandbox ended early: ${pending}`);
      pending += value;
    }
    const line = pending.slice(0, pending.indexOf("\n"));
    pending = pending.slice(line.length + 1);
    return line;
  };
}

/** A plain process: spawn, read its output, wait for its exit. */
function plain(name: string, cmd: string[]): Variant {
  return {
    name,
    async sample(measureCpu) {
      const counted = measureCpu ? withCpuCount(cmd) : { cmd, cpuMs: () => Number.NaN };
      const started = performance.now();
      const proc = Bun.spawn(counted.cmd, { stdout: "pipe", stderr: "ignore", env: {} });
      await new Response(proc.stdout).text();
      await proc.exited;
      const exit = performance.now() - started;
      return { ready: Number.NaN, run: Number.NaN, exit, cpu: counted.cpuMs() };
    },
  };
}

/**
 * The harness as the pool starts it (sandbox.ts): spawn → "ready" → the runner's checks and
 * limits (readiness.ts), then the program, then its exit.
 */
function harness(name: string, spec: SandboxSpec, { run: runs = true } = {}): Variant {
  return {
    name,
    async sample(measureCpu) {
      const workDir = join(root, "runs", Bun.randomUUIDv7().slice(-12));
      mkdirSync(workDir, { recursive: true });
      const { cmd, env, cwd, reportsPid, seccompFile } = sandboxCommand(spec, workDir);
      const counted = measureCpu ? withCpuCount(cmd) : { cmd, cpuMs: () => Number.NaN };
      const started = performance.now();
      const filter = seccompFile === null ? [] : [openSync(seccompFile, "r")];
      const proc = Bun.spawn(counted.cmd, {
        env,
        cwd,
        stdio: ["pipe", "pipe", "pipe", ...(reportsPid ? ["pipe" as const] : []), ...filter],
        detached: true,
      });
      for (const fd of filter) closeSync(fd);
      const infoFd = proc.stdio[INFO_FD];
      const pid = reportsPid && infoFd ? pidFromInfo(infoFd) : Promise.resolve(proc.pid);
      const nextLine = lineReader(proc.stderr);
      const readyMessage = parseControlLine(await nextLine());
      if (readyMessage?.t !== "ready") throw new Error("no ready message");
      const sandboxPid = await pid;
      // Under perf without bubblewrap, the pid is perf's: its limits would stop it reporting.
      const checked = counted.cmd === cmd || reportsPid ? spec : { ...spec, limits: null };
      const admitted = admit(checked, readyMessage, sandboxPid);
      if (typeof admitted === "string") throw new Error(admitted);
      const ready = performance.now() - started;
      if (!runs) {
        // The price of the sandbox alone: standard input ends, the harness ends, so does Bun.
        proc.stdin.end();
        await proc.exited;
        rmSync(workDir, { recursive: true, force: true });
        const exit = performance.now() - started;
        return { ready, run: Number.NaN, exit, cpu: counted.cpuMs() };
      }
      writeFileSync(join(workDir, PROGRAM_FILE), PROGRAM);
      const runStarted = performance.now();
      proc.stdin.write(GO_LINE);
      proc.stdin.flush();
      const output = new Response(proc.stdout).text();
      await nextLine();
      const run = performance.now() - runStarted;
      await output;
      await proc.exited;
      const exit = performance.now() - started;
      rmSync(workDir, { recursive: true, force: true });
      return { ready, run, exit, cpu: counted.cpuMs() };
    },
  };
}

/**
 * One reusable sandbox, `count` runs back to back after a few uncounted: for each later run, the
 * wall time from the go to the next worker's "ready", and the CPU time of the whole sandbox
 * process (every thread, from /proc/<pid>/stat) per run.
 */
async function reusedRuns(spec: SandboxSpec, count: number) {
  const workDir = join(root, "runs", Bun.randomUUIDv7().slice(-12));
  mkdirSync(workDir, { recursive: true });
  const { cmd, env, cwd, seccompFile } = sandboxCommand(spec, workDir);
  const filter = seccompFile === null ? [] : [openSync(seccompFile, "r")];
  const proc = Bun.spawn(cmd, {
    env,
    cwd,
    stdio: ["pipe", "pipe", "pipe", "pipe", ...filter],
    detached: true,
  });
  for (const fd of filter) closeSync(fd);
  const infoFd = proc.stdio[INFO_FD];
  if (!infoFd) throw new Error("no info descriptor");
  void new Response(proc.stdout).arrayBuffer(); // the output is not what is measured
  const nextLine = lineReader(proc.stderr);
  const nextMessage = async () => parseControlLine(await nextLine());
  const first = await nextMessage();
  if (first?.t !== "ready") throw new Error("no ready message");
  const sandboxPid = await pidFromInfo(infoFd);
  const admitted = admit(spec, first, sandboxPid);
  if (typeof admitted === "string") throw new Error(admitted);
  writeFileSync(join(workDir, PROGRAM_FILE), PROGRAM);
  const once = async () => {
    proc.stdin.write(GO_LINE);
    proc.stdin.flush();
    for (let message = await nextMessage(); message?.t !== "ready"; message = await nextMessage()) {
      if (message?.t === "error" || message?.t === "blocked")
        throw new Error(JSON.stringify(message));
    }
  };
  try {
    for (let i = 0; i < 10; i++) await once();
    const cpuBefore = processUsage(sandboxPid).cpuMs;
    const started = performance.now();
    for (let i = 0; i < count; i++) await once();
    return {
      wall: (performance.now() - started) / count,
      cpu: (processUsage(sandboxPid).cpuMs - cpuBefore) / count,
    };
  } finally {
    proc.kill("SIGKILL");
    process.kill(sandboxPid, "SIGKILL");
    await proc.exited;
  }
}

const FLAGS = ["--disallow-code-generation-from-strings=strict", "--no-macros"];
const none: SandboxSpec = {
  bunPath,
  bwrapPath: null,
  libraries: bwrapPath ? bunLibraries(bunPath) : [],
  harnessDir,
  lockdown: false,
  seccomp: false,
  limits: null,
  // Each sandbox runs one program and exits, as the pool's fresh ones do for their first run.
  reuse: false,
};
const limits = defaultLimits(256);
const variants: Variant[] = [
  plain("floor: bun <file>", [bunPath, trivial]),
  plain("bun + strict flags <file>", [bunPath, ...FLAGS, trivial]),
  harness("harness, no layer", none),
  harness("harness + rlimits", { ...none, limits }),
  harness("harness + seccomp", { ...none, seccomp: true }),
  harness("harness + lockdown", { ...none, lockdown: true }),
  harness("harness, all but namespaces", { ...none, lockdown: true, seccomp: true, limits }),
];
if (bwrapPath) {
  const every = { ...none, bwrapPath, lockdown: true, seccomp: true, limits };
  variants.push(
    harness("harness in bwrap, no other layer", { ...none, bwrapPath }),
    harness("harness, every layer", every),
    harness("every layer, no run", every, { run: false }),
    harness("every layer, reusable, no run", { ...every, reuse: true }, { run: false }),
  );
}

const chosen = variants.filter((variant) => variant.name.includes(values.only));
let reused: { wall: number; cpu: number } | undefined;
const samples = new Map<string, Sample[]>(chosen.map((variant) => [variant.name, []]));
try {
  for (let round = 0; round < ROUNDS + 3; round++) {
    for (const variant of chosen) {
      const timed = await variant.sample(false);
      const { cpu } = await variant.sample(true);
      // Three rounds warm the caches.
      if (round >= 3) samples.get(variant.name)?.push({ ...timed, cpu });
    }
  }
  if (bwrapPath && "every layer, reusable, each later run".includes(values.only)) {
    const every = { ...none, bwrapPath, lockdown: true, seccomp: true, limits, reuse: true };
    reused = await reusedRuns(every, ROUNDS * 10);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const ms = (value: number) => (Number.isNaN(value) ? "     -" : value.toFixed(2).padStart(6));
console.log(`medians over ${ROUNDS} rounds (ms)      ready    run   exit    cpu`);
for (const [name, list] of samples) {
  const of = (key: keyof Sample) => median(list.map((sample) => sample[key]));
  console.log(
    `${name.padEnd(34)} ${ms(of("ready"))} ${ms(of("run"))} ${ms(of("exit"))} ${ms(of("cpu"))}`,
  );
}
if (reused) {
  console.log(
    `${"every layer, reusable, each later run".padEnd(34)}      - ${ms(reused.wall)}      - ${ms(reused.cpu)}   (means over ${ROUNDS * 10} runs: go to the next worker's "ready"; CPU of the sandbox's process)`,
  );
}
