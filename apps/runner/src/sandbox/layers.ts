/**
 * Which kernel layers this host really provides, found at start-up by running a probe program in
 * a sandbox per layer (runtime lockdown off, so the probe can try what a program would try) and
 * checking from the inside that the layer holds, not merely that it was asked for.
 */
import { mkdirSync, rmSync } from "node:fs";
import type { SandboxSpec } from "./command.ts";
import type { KernelLimits } from "./limits.ts";
import { startSandbox } from "./sandbox.ts";

export const KERNEL_LAYERS = ["seccomp", "namespaces", "rlimits"] as const;
export type KernelLayer = (typeof KERNEL_LAYERS)[number];
export type LayerStatus = { on: boolean; detail: string };
export type KernelLayers = Record<KernelLayer, LayerStatus>;

type ProbeReport = {
  seccompMode: string;
  spawn: string;
  socket: string;
  interfaces: string[];
  hostPathVisible: boolean;
  maxOpenFiles: string;
};

/** The probe, as a program: it reports what it could do, one JSON line. */
const probeProgram = (hostPath: string) => `
const fs = process.getBuiltinModule("node:fs");
const read = (path) => { try { return fs.readFileSync(path, "utf8"); } catch { return ""; } };
const failure = (error) => String(error?.code ?? error?.message ?? error);
const report = {};
report.seccompMode = /Seccomp:\\s*(\\d)/.exec(read("/proc/self/status"))?.[1] ?? "unknown";
try { Bun.spawnSync([process.execPath, "--version"]); report.spawn = "allowed"; }
catch (error) { report.spawn = failure(error); }
try { const socket = await Bun.udpSocket({}); socket.close(); report.socket = "allowed"; }
catch (error) { report.socket = failure(error); }
report.interfaces = read("/proc/net/dev").split("\\n").slice(2)
  .map((line) => line.split(":")[0].trim()).filter(Boolean);
report.hostPathVisible = fs.existsSync(${JSON.stringify(hostPath)});
report.maxOpenFiles = /Max open files\\s+(\\d+)/.exec(read("/proc/self/limits"))?.[1] ?? "unknown";
console.log(JSON.stringify(report));
`;

/**
 * Each probe's deadlines, one attempt each. A probe that runs out of time has found nothing (a
 * host busy starting several apps at once is slow, not unsafe): it is asked again with longer,
 * and only a probe that answers, or the last deadline, decides. With one 5 s deadline a replica
 * restarted on a busy 2-core machine found namespaces and limits "missing" and refused every
 * program until it was restarted again (the failure drills, 2026-11-29).
 */
export const PROBE_DEADLINES_MS = [5_000, 15_000, 30_000];

export type DetectOptions = {
  /** Tests shorten them. */
  probeDeadlinesMs?: readonly number[];
  bunPath: string;
  bwrapPath: string | null;
  harnessDir: string;
  libraries: SandboxSpec["libraries"];
  limits: KernelLimits;
  workRoot: string;
};

async function probeOnce(
  spec: SandboxSpec,
  workRoot: string,
  hostPath: string,
  deadlineMs: number,
) {
  const sandbox = startSandbox(spec, workRoot);
  try {
    await sandbox.ready;
    const started = performance.now();
    const outcome = await sandbox.run(probeProgram(hostPath), {
      timeoutMs: deadlineMs,
      maxOutputBytes: 64 * 1024,
    });
    // An answer later than its deadline is out of time too: on a loaded host the run's timer can
    // fire after the answer has come, and the deadline is what the retries are judged by.
    if (outcome.timedOut || performance.now() - started > deadlineMs) {
      return { timedOut: true as const };
    }
    const line = outcome.output.trim().split("\n").at(-1) ?? "";
    try {
      return JSON.parse(line) as ProbeReport;
    } catch {
      throw new Error(`the probe failed: ${outcome.diagnostics.slice(0, 300) || line}`);
    }
  } finally {
    await sandbox.dispose();
  }
}

async function probe(
  spec: SandboxSpec,
  workRoot: string,
  hostPath: string,
  deadlinesMs: readonly number[],
): Promise<ProbeReport> {
  for (const deadlineMs of deadlinesMs) {
    const report = await probeOnce(spec, workRoot, hostPath, deadlineMs);
    if (!("timedOut" in report)) return report;
  }
  throw new Error(`the probe did not answer within ${deadlinesMs.join(", ")} ms`);
}

const failed = (error: unknown): LayerStatus => ({
  on: false,
  detail: error instanceof Error ? error.message : String(error),
});

export async function detectKernelLayers(opts: DetectOptions): Promise<KernelLayers> {
  const base: SandboxSpec = {
    bunPath: opts.bunPath,
    bwrapPath: null,
    harnessDir: opts.harnessDir,
    libraries: opts.libraries,
    lockdown: false,
    seccomp: false,
    limits: null,
    reuse: false,
  };
  const hostPath = opts.harnessDir;
  const deadlines = opts.probeDeadlinesMs ?? PROBE_DEADLINES_MS;
  mkdirSync(opts.workRoot, { recursive: true, mode: 0o711 });
  try {
    const namespaces = opts.bwrapPath
      ? await probe(
          { ...base, bwrapPath: opts.bwrapPath },
          opts.workRoot,
          hostPath,
          deadlines,
        ).then((report) => {
          const isolated = report.interfaces.every((name) => name === "lo");
          return isolated && !report.hostPathVisible
            ? {
                on: true,
                detail: `bubblewrap; interfaces: ${report.interfaces.join(", ") || "none"}`,
              }
            : { on: false, detail: `namespaces not effective: ${JSON.stringify(report)}` };
        }, failed)
      : { on: false, detail: "bwrap (bubblewrap) is not installed" };
    // The filter and the limits as the runner will apply them: the filter installed by
    // bubblewrap when the namespaces work (else by the sandbox itself), the limits set on the
    // Bun process inside bubblewrap (found through its report) or on the sandbox directly.
    const wrapper = namespaces.on ? opts.bwrapPath : null;
    const installer = wrapper ? "bubblewrap" : "the sandbox";
    const [seccomp, rlimits] = await Promise.all([
      probe(
        { ...base, seccomp: true, bwrapPath: wrapper },
        opts.workRoot,
        hostPath,
        deadlines,
      ).then((report) => {
        const holds = report.seccompMode === "2" && report.spawn !== "allowed";
        return holds && report.socket !== "allowed"
          ? {
              on: true,
              detail: `filter active (installed by ${installer}); process start: ${report.spawn}, socket: ${report.socket}`,
            }
          : { on: false, detail: `filter not effective: ${JSON.stringify(report)}` };
      }, failed),
      probe(
        { ...base, limits: opts.limits, bwrapPath: wrapper },
        opts.workRoot,
        hostPath,
        deadlines,
      ).then(
        (report) =>
          report.maxOpenFiles === String(opts.limits.openFiles)
            ? {
                on: true,
                detail: `address space +${opts.limits.memoryMb} MiB, cpu ${opts.limits.cpuSeconds} s, files ${opts.limits.openFiles}, file size ${opts.limits.fileSizeBytes} B, processes ${opts.limits.processes}`,
              }
            : { on: false, detail: `limits not in force: ${JSON.stringify(report)}` },
        failed,
      ),
    ]);
    return { seccomp, namespaces, rlimits };
  } finally {
    rmSync(opts.workRoot, { recursive: true, force: true });
  }
}
