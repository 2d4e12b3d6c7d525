/**
 * The runner as one object: the client's time budget, then behind the fair concurrency gate the
 * static check (in a checker process: checker/pool.ts) and a warm sandbox from the pool (the
 * client's own, kept from its last clean run, or a fresh one), then the outcome as a RunResult.
 * Each layer can be switched off on its own, which is how the tests show that each one holds by
 * itself.
 */

import { join } from "node:path";
import type { RunResult } from "@platform/contracts";
import { type Logger, withSpan } from "@platform/server";
import { createClientBudget } from "./budget.ts";
import { createCheckerPool } from "./checker/pool.ts";
import { pathReplacements, type SandboxSpec } from "./command.ts";
import { createGate } from "./gate.ts";
import { CHECKER_FILE } from "./harness.ts";
import type { KernelLimits } from "./limits.ts";
import { createPool, NoSandboxError } from "./pool.ts";
import { toRunResult } from "./result.ts";
import { SandboxFolderGoneError } from "./sandbox.ts";
import type { WorkFolder } from "./work-folder.ts";

export type LayerSwitches = {
  static: boolean;
  lockdown: boolean;
  seccomp: boolean;
  namespaces: boolean;
  rlimits: boolean;
};

export type RunnerConfig = {
  layers: LayerSwitches;
  limits: KernelLimits;
  poolSize: number;
  /**
   * Runs one sandbox process may serve, all for one client and each in a fresh worker
   * (kept.ts); 1 uses every sandbox once. Only with the lockdown and seccomp layers on.
   */
  runsPerSandbox: number;
  /** How long a used sandbox waits for its client's next run. */
  sandboxIdleMs: number;
  maxConcurrency: number;
  queueSize: number;
  /** Runs one client may have running or waiting at once. */
  perClientMaxRuns: number;
  /** Sandbox time (checking included) one client's runs may take per minute. */
  clientSandboxMsPerMinute: number;
  /** Checker processes (checker/pool.ts); a check taking longer than checkTimeoutMs is stopped. */
  checkers: number;
  checkTimeoutMs: number;
  maxOutputBytes: number;
  /** How long a run may wait for a sandbox to become ready before the runner gives up. */
  acquireTimeoutMs: number;
  bunPath: string;
  bwrapPath: string | null;
  harnessDir: string;
  /** Found at start-up (prepareHost, visible-files.ts); bound into each sandbox. */
  libraries: SandboxSpec["libraries"];
  workRoot: string;
  /**
   * The runner's folder, which holds harnessDir and workRoot (work-folder.ts): checked before
   * each sandbox start and made again if it vanishes. Tests' runners go without.
   */
  workFolder?: Pick<WorkFolder, "root" | "intact" | "restore">;
  logger: Logger;
};

export type SandboxRunner = {
  readonly layers: LayerSwitches;
  /** Why this runner runs no program at all (a missing sandbox layer), if so. */
  readonly unavailable?: string;
  /**
   * Why no program can run at the moment (the work folder vanished, being made again), if so;
   * a check that starts the repair itself (readiness calls it).
   */
  filesProblem(): string | undefined;
  /**
   * `client` names who asked (an address): the fairness limits are per client, and a sandbox
   * only ever serves one client. Without it, no sandbox is reused.
   */
  run(code: string, timeoutMs: number, client?: string): Promise<RunResult>;
  stats(): {
    running: number;
    queued: number;
    ready: number;
    starting: number;
    kept: number;
    keptPreparing: number;
    started: number;
    failuresInARow: number;
    checkersReplaced: number;
    /** Checks answered from the verdict cache (checker/verdicts.ts). */
    checksCached: number;
  };
  close(): Promise<void>;
};

/**
 * A checker lives for many checks and RLIMIT_CPU counts its whole life: this much, then it is
 * replaced like one that crashed (each check's own time is capped by checkTimeoutMs).
 */
const CHECKER_CPU_SECONDS = 3_600;

/** The runner of a host that lacks a sandbox layer: every run is refused with `reason`. */
export function unavailableRunner(layers: LayerSwitches, reason: string): SandboxRunner {
  return {
    layers,
    unavailable: reason,
    run: async () => {
      throw new NoSandboxError(reason);
    },
    filesProblem: () => undefined,
    stats: () => ({
      running: 0,
      queued: 0,
      ready: 0,
      starting: 0,
      kept: 0,
      keptPreparing: 0,
      started: 0,
      failuresInARow: 0,
      checkersReplaced: 0,
      checksCached: 0,
    }),
    close: async () => {},
  };
}

export function createSandboxRunner(config: RunnerConfig): SandboxRunner {
  const { layers } = config;
  const spec: SandboxSpec = {
    bunPath: config.bunPath,
    bwrapPath: layers.namespaces ? config.bwrapPath : null,
    harnessDir: config.harnessDir,
    libraries: config.libraries,
    lockdown: layers.lockdown,
    seccomp: layers.seccomp,
    limits: layers.rlimits ? config.limits : null,
    // Reuse needs the lockdown (its console counts the output that tells one run from the
    // next) and the filter (which keeps a program off the limits the runner moves; readiness.ts).
    reuse: layers.lockdown && layers.seccomp && config.runsPerSandbox > 1,
  };
  if (layers.namespaces && !config.bwrapPath) throw new Error("namespaces need bwrap");
  const { logger, workFolder } = config;
  const folderGone = () =>
    workFolder && !workFolder.intact() ? `the work folder ${workFolder.root} is gone` : undefined;
  // One repair at a time, however many runs and probes found the folder gone.
  let repairing: Promise<void> | undefined;
  const repair = (): Promise<void> => {
    repairing ??= pool
      .renew(async () => {
        if (!workFolder || workFolder.intact()) return;
        logger.error("the work folder vanished: making it again", { folder: workFolder.root });
        await workFolder.restore();
        logger.info("work folder made again", { folder: workFolder.root });
      })
      .catch((error: unknown) =>
        logger.error("the work folder could not be made again", { err: error }),
      )
      .finally(() => {
        repairing = undefined;
      });
    return repairing;
  };
  const pool = createPool({
    size: config.poolSize,
    spec,
    workRoot: config.workRoot,
    logger,
    runsPerSandbox: config.runsPerSandbox,
    idleMs: config.sandboxIdleMs,
    perClient: config.perClientMaxRuns,
    checkFiles: () => {
      const problem = folderGone();
      if (problem) throw new Error(problem);
    },
    onStartFailed: () => {
      if (folderGone()) void repair();
    },
  });
  const gate = createGate({
    maxRunning: config.maxConcurrency,
    maxQueued: config.queueSize,
    perClient: config.perClientMaxRuns,
  });
  const budget = createClientBudget({ msPerWindow: config.clientSandboxMsPerMinute });
  const checkers = createCheckerPool({
    size: config.checkers,
    bunPath: config.bunPath,
    file: join(config.harnessDir, CHECKER_FILE),
    limits: layers.rlimits ? { ...config.limits, cpuSeconds: CHECKER_CPU_SECONDS } : null,
    seccomp: layers.seccomp,
    timeoutMs: config.checkTimeoutMs,
    acquireTimeoutMs: config.acquireTimeoutMs,
    logger,
  });

  // Traced, the check and the run are spans of their own (what they ran and printed is not).
  const runChecked = async (
    code: string,
    timeoutMs: number,
    client: string | undefined,
  ): Promise<RunResult> => {
    const verdict = await withSpan("sandbox.check", {}, async (span) => {
      const checked = await checkers.check(code, layers.static, client);
      span?.setAttribute("sandbox.check.passed", checked.ok);
      return checked;
    });
    if (!verdict.ok) {
      return {
        output: "",
        error: `${verdict.name}: ${verdict.message}`,
        executionTime: 0,
        timedOut: false,
      };
    }
    // A sandbox whose folder is gone ran nothing: the work folder is made again if that is
    // what happened, and the run is given to a fresh sandbox, once.
    for (let attempt = 1; ; attempt++) {
      try {
        return await runInSandbox(verdict.js, timeoutMs, client);
      } catch (error) {
        if (!(error instanceof SandboxFolderGoneError)) throw error;
        if (attempt > 1) throw new NoSandboxError(error.message);
        logger.warn("a sandbox's folder was gone; the run goes to another", { err: error });
        if (folderGone()) await repair();
      }
    }
  };

  const runInSandbox = async (
    js: string,
    timeoutMs: number,
    client: string | undefined,
  ): Promise<RunResult> => {
    const sandbox = await pool.take(client, config.acquireTimeoutMs);
    let clean = false;
    try {
      const outcome = await withSpan("sandbox.run", {}, async (span) => {
        const ran = await sandbox.run(js, {
          timeoutMs,
          maxOutputBytes: config.maxOutputBytes,
        });
        span?.setAttributes({
          "sandbox.timed_out": ran.timedOut,
          "sandbox.final": ran.final?.t ?? "none",
          "sandbox.duration_ms": ran.durationMs,
        });
        return ran;
      });
      clean = outcome.clean;
      return toRunResult(outcome, {
        timeoutMs,
        memoryMb: config.limits.memoryMb,
        maxOutputBytes: config.maxOutputBytes,
        paths: pathReplacements(spec, sandbox.workDir),
      });
    } finally {
      // Kept for the client's next run, or killed and cleaned up, after the answer.
      pool.release(sandbox, client, clean);
    }
  };

  const run = async (code: string, timeoutMs: number, client?: string): Promise<RunResult> => {
    const who = client ?? "unknown";
    budget.check(who);
    return gate.run(who, async () => {
      const started = performance.now();
      try {
        return await runChecked(code, timeoutMs, client);
      } finally {
        budget.charge(who, performance.now() - started);
      }
    });
  };

  return {
    layers,
    run,
    filesProblem: () => {
      const problem = folderGone();
      if (problem) void repair();
      return problem;
    },
    stats: () => ({
      ...gate.stats(),
      ...pool.stats(),
      checkersReplaced: checkers.stats().replaced,
      checksCached: checkers.stats().cached,
    }),
    close: async () => {
      await Promise.all([pool.close(), checkers.close()]);
    },
  };
}
