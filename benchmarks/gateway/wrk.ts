/** wrk as the gateway benchmarks run it: one load, its throughput, latency and a process's CPU. */

export type Result = {
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerRequest?: number;
  /** The processes' CPU time over the load's wall time: near 1 for a process held to one CPU
   * and saturated by the load, lower when it waited for work (then it was not the bottleneck). */
  cpuBusy?: number;
};

import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";

/**
 * Throws unless another checkout's gateway would run that checkout's own shared code. A copy
 * whose node_modules folders are links to this checkout's resolves `@platform/server` here, so
 * its gateway would silently be this one (a mistake that once made five different variants
 * measure the same code).
 */
export function assertOwnCode(checkout: string): void {
  const server = realpathSync(join(checkout, "apps/gateway/node_modules/@platform/server"));
  if (!server.startsWith(`${realpathSync(checkout)}/`)) {
    throw new Error(`${checkout}'s gateway resolves @platform/server to ${server}, not its own`);
  }
}

/** utime + stime of a process, in microseconds. */
export async function cpuMicros(pid: number): Promise<number> {
  const stat = await Bun.file(`/proc/${pid}/stat`).text();
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / 100) * 1e6; // USER_HZ is 100 on Linux
}

/**
 * utime + stime of each of a process's threads, in microseconds, added up by thread name with
 * trailing digits dropped ("JITWorker", "HTTP Client", "bun" for the main thread): where a
 * variant's extra CPU goes. A thread that ended in between is missing from the later reading.
 */
export function threadMicros(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended while the others were read
    }
    const name = stat
      .slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      .replace(/\d+$/, "")
      .trim();
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const micros = ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6;
    byName.set(name, (byName.get(name) ?? 0) + micros);
  }
  return byName;
}

const toMs = (value: string, unit: string) =>
  Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? Number.NaN);

export async function wrk(
  url: string,
  seconds: number,
  conns: number,
  pids: number[] = [],
): Promise<Result> {
  const before = await Promise.all(pids.map(cpuMicros));
  const began = performance.now();
  const threads = Math.min(2, conns);
  const proc = Bun.spawn(["wrk", `-t${threads}`, `-c${conns}`, `-d${seconds}s`, "--latency", url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const text = await new Response(proc.stdout).text();
  await proc.exited;
  const after = await Promise.all(pids.map(cpuMicros));
  const wallMicros = (performance.now() - began) * 1000;
  const latency = (pct: string) => {
    const match = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(text);
    return match ? toMs(match[1] ?? "", match[2] ?? "") : Number.NaN;
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  const total = Number(/(\d+) requests in/.exec(text)?.[1]);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1];
  if (errors) throw new Error(`${url}: ${errors} non-2xx responses`);
  const cpu = after.reduce((sum, value, i) => sum + value - (before[i] ?? 0), 0);
  return {
    rps,
    p50: latency("50"),
    p99: latency("99"),
    ...(pids.length ? { cpuUsPerRequest: cpu / total, cpuBusy: cpu / wallMicros } : {}),
  };
}
