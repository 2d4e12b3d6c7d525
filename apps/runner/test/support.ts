/**
 * Test helpers: runners with chosen layers, the app around one, and the witnesses the escape
 * tests use to prove nothing got out (a TCP listener, a marker file, a secret in the runner's
 * own environment, and a scan for sandbox processes left behind).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUN_OUTPUT_MAX_BYTES } from "@platform/contracts";
import { createLogger, type Metrics, memorySink, parseTrustedProxies } from "@platform/server";
import { testStore } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { INSIDE } from "../src/sandbox/command.ts";
import {
  buildHarness,
  CHECKER_FILE,
  HARNESS_FILE,
  SUPERVISOR_FILE,
} from "../src/sandbox/harness.ts";
import type { KernelLayers } from "../src/sandbox/layers.ts";
import { procStatFields } from "../src/sandbox/processes.ts";
import {
  createSandboxRunner,
  type LayerSwitches,
  type RunnerConfig,
} from "../src/sandbox/runner.ts";
import { defaultLimits } from "../src/sandbox/setup.ts";
import { bunLibraries } from "../src/sandbox/visible-files.ts";

export const ALL_LAYERS: LayerSwitches = {
  static: true,
  lockdown: true,
  seccomp: true,
  namespaces: true,
  rlimits: true,
};
export const NO_LAYERS: LayerSwitches = {
  static: false,
  lockdown: false,
  seccomp: false,
  namespaces: false,
  rlimits: false,
};

/**
 * One folder per test process: the harness build and every runner's sandboxes live in it;
 * test/preload.ts removes it after the last test file.
 */
export const TEST_ROOT = join(tmpdir(), `runner-test-${process.pid}`);
let harness: Promise<string> | undefined;
export const testHarness = () => {
  harness ??= buildHarness(join(TEST_ROOT, "harness"));
  return harness;
};

export const bwrapPath = Bun.which("bwrap");

/** What the runner binds into each sandbox, found as prepareHost finds it. */
export const testLibraries = bunLibraries(process.execPath);

export const silentLogger = () =>
  createLogger({ service: "runner", level: "silent", sink: memorySink() });

export async function testRunner(layers: LayerSwitches, overrides: Partial<RunnerConfig> = {}) {
  return createSandboxRunner({
    layers,
    limits: defaultLimits(128),
    poolSize: 1,
    runsPerSandbox: 100,
    sandboxIdleMs: 30_000,
    maxConcurrency: 2,
    queueSize: 4,
    perClientMaxRuns: 64,
    clientSandboxMsPerMinute: 3_600_000,
    checkers: 1,
    checkTimeoutMs: 2_000,
    maxOutputBytes: RUN_OUTPUT_MAX_BYTES,
    acquireTimeoutMs: 10_000,
    bunPath: process.execPath,
    bwrapPath,
    harnessDir: await testHarness(),
    libraries: testLibraries,
    workRoot: join(TEST_ROOT, `runs-${Bun.randomUUIDv7().slice(-8)}`),
    logger: silentLogger(),
    ...overrides,
  });
}

/** What detection reports on a host with every layer (the tests' runners switch them). */
export const FULL_KERNEL: KernelLayers = {
  seccomp: { on: true, detail: "test" },
  namespaces: { on: true, detail: "test" },
  rlimits: { on: true, detail: "test" },
};

export async function testApp(
  layers: LayerSwitches = ALL_LAYERS,
  overrides: Partial<RunnerConfig> & { runsPerMinute?: number; metrics?: Metrics } = {},
) {
  const { runsPerMinute = 10_000, metrics, ...config } = overrides;
  const runner = await testRunner(layers, config);
  const app = createApp({
    runner,
    kernel: FULL_KERNEL,
    // Memory, or Redis when TEST_REDIS_URL is set: the rate limit is checked on both.
    store: testStore("runner"),
    logger: silentLogger(),
    trustedProxies: parseTrustedProxies("loopback"),
    runsPerMinute,
    metrics,
  });
  return { app, runner };
}

export type RunBody = {
  output: string;
  error: string | null;
  executionTime: number;
  timedOut: boolean;
};

export const runRequest = (body: unknown) =>
  new Request("http://localhost/api/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** A TCP listener on 127.0.0.1 that counts the connections it accepted. */
export function connectionWitness() {
  let connections = 0;
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        connections++;
        socket.end();
      },
      data() {},
    },
  });
  return { port: listener.port, connections: () => connections, stop: () => listener.stop(true) };
}

/** A host file with a secret in it, and a path where nothing may ever be written. */
export function fileWitness() {
  const dir = join(TEST_ROOT, `witness-${Bun.randomUUIDv7().slice(-8)}`);
  mkdirSync(dir, { recursive: true });
  const secret = `file-secret-${crypto.randomUUID()}`;
  const marker = join(dir, "marker.txt");
  writeFileSync(marker, secret);
  const forbidden = join(dir, "written-by-sandbox.txt");
  return {
    marker,
    secret,
    forbidden,
    written: () => existsSync(forbidden),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A secret in the runner's own environment, which no sandbox may see. */
export const ENV_SECRET_NAME = "RUNNER_TEST_SECRET";
export const envSecret = `env-secret-${crypto.randomUUID()}`;
process.env[ENV_SECRET_NAME] = envSecret;

/** Parent pid and start time (clock ticks since boot) of a process, from /proc/<pid>/stat. */
function statOf(pid: string): { ppid: number; started: number } | null {
  try {
    const fields = procStatFields(pid);
    return { ppid: Number(fields[1]), started: Number(fields[19]) };
  } catch {
    return null;
  }
}

const SELF_STARTED = statOf(String(process.pid))?.started ?? 0;

/**
 * Sandbox processes this test run is responsible for: descendants of this process, and any
 * sandbox orphaned (re-parented to init) since this process started. Sandboxes of other runners
 * on the same machine are not counted; an escaped orphan of ours is.
 */
export function sandboxProcesses(): { pid: number; cmdline: string }[] {
  const parents = new Map<number, number>();
  const candidates: { pid: number; cmdline: string; started: number }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (!stat) continue;
    parents.set(Number(entry), stat.ppid);
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      continue;
    }
    // Outside the namespaces the harness path is the test root; inside, bwrap mounts it here.
    // Checkers (long-lived, one per runner) are not sandboxes.
    if (cmdline.includes(CHECKER_FILE)) continue;
    const entries = [`/runner/${HARNESS_FILE}`, `/runner/${SUPERVISOR_FILE}`];
    if (cmdline.includes(TEST_ROOT) || entries.some((entry) => cmdline.includes(entry))) {
      candidates.push({ pid: Number(entry), cmdline, started: stat.started });
    }
  }
  const ours = (pid: number): boolean => {
    for (
      let current = parents.get(pid);
      current !== undefined && current > 1;
      current = parents.get(current)
    ) {
      if (current === process.pid) return true;
    }
    return false;
  };
  return candidates
    .filter((p) => ours(p.pid) || (parents.get(p.pid) === 1 && p.started >= SELF_STARTED))
    .map(({ pid, cmdline }) => ({ pid, cmdline }));
}

/** The Bun processes of reusable sandboxes now (bubblewrap's own command line names the file too). */
export const reusableSandboxProcesses = () =>
  sandboxProcesses().filter(
    ({ cmdline }) =>
      cmdline.startsWith(`${INSIDE.bun} `) &&
      cmdline.includes(`${INSIDE.harness}/${SUPERVISOR_FILE}`),
  );

/** Waits (briefly) for sandbox processes to be no more than `max`; returns what is left. */
export async function settleProcesses(max: number, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  let left = sandboxProcesses();
  while (left.length > max && Date.now() < deadline) {
    await Bun.sleep(20);
    left = sandboxProcesses();
  }
  return left;
}
