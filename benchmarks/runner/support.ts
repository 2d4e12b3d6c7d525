/**
 * What the runner benchmarks share: a real runner started as a child process on a free loopback
 * port, one request to it, percentiles, and the machine's CPU time (every process and the kernel,
 * from /proc/stat) so a cost paid outside the measured process (bubblewrap, the namespaces'
 * teardown in kernel threads) is counted too.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, waitForHttp } from "../../packages/server/test/support/ports.ts";

export const root = join(import.meta.dir, "../..");

export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Clock ticks per second of /proc/stat: USER_HZ, 100 on every Linux this runs on. */
const USER_HZ = 100;

/**
 * CPU time the whole machine has spent busy so far, in ms: user, nice, system, irq, softirq and
 * steal of the "cpu" line (idle and iowait left out). Sampled before and after a batch of runs.
 */
export function machineBusyMs(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const ticks = [user, nice, system, irq, softirq, steal].reduce<number>(
    (sum, value) => sum + (value ?? 0),
    0,
  );
  return (ticks * 1000) / USER_HZ;
}

export type RunnerProcess = {
  url: string;
  pid: number;
  layers: Record<string, { on: boolean }>;
  stop(): Promise<void>;
};

/** A runner from the repository's own entry point, every layer on, checked through /health/ready. */
export async function startRunner(env: Record<string, string> = {}): Promise<RunnerProcess> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, "apps/runner/src/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      RUNNER_PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health/live`, 20_000);
  const ready = await fetch(`${url}/health/ready`);
  if (!ready.ok) throw new Error(`the runner is not ready: ${await ready.text()}`);
  const { layers } = (await ready.json()) as { layers: Record<string, { on: boolean }> };
  return {
    url,
    pid: proc.pid,
    layers,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

export type RunAnswer = {
  status: number;
  ms: number;
  output?: string;
  error?: string | null;
  retryAfter: number;
};

/** One POST /api/run; `client` becomes X-Forwarded-For, which the runner believes from loopback. */
export async function postRun(
  url: string,
  code: string,
  opts: { timeout?: number; client?: string } = {},
): Promise<RunAnswer> {
  const started = performance.now();
  const response = await fetch(`${url}/api/run`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(opts.client ? { "x-forwarded-for": opts.client } : {}),
    },
    body: JSON.stringify({ code, ...(opts.timeout ? { timeout: opts.timeout } : {}) }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    output?: string;
    error?: string | null;
  };
  return {
    status: response.status,
    ms: performance.now() - started,
    output: body.output,
    error: body.error,
    retryAfter: Number(response.headers.get("retry-after") ?? 0),
  };
}

/** Resident memory of a process, in MiB, from /proc (0 once it is gone). */
export function residentMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
