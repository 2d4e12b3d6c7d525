/**
 * The runner as one object: static check, then a warm sandbox from the pool behind the
 * concurrency gate, then the outcome as a RunResult. Each layer can be switched off on its own,
 * which is how the tests show that each one holds by itself.
 */
import type { RunResult } from "@platform/contracts";
import type { Logger } from "@platform/server";
import { pathReplacements, type SandboxSpec } from "./command.ts";
import { createGate } from "./gate.ts";
import type { KernelLimits } from "./limits.ts";
import { createPool } from "./pool.ts";
import { toRunResult } from "./result.ts";
import { checkProgram, transpileOnly } from "./static-check.ts";

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
  maxConcurrency: number;
  queueSize: number;
  maxOutputBytes: number;
  /** How long a run may wait for a sandbox to become ready before the runner gives up. */
  acquireTimeoutMs: number;
  bunPath: string;
  bwrapPath: string | null;
  harnessDir: string;
  /** Found at start-up (prepareHost, visible-files.ts); bound into each sandbox. */
  libraries: SandboxSpec["libraries"];
  workRoot: string;
  logger: Logger;
};

export type SandboxRunner = {
  readonly layers: LayerSwitches;
  run(code: string, timeoutMs: number): Promise<RunResult>;
  stats(): {
    running: number;
    queued: number;
    ready: number;
    starting: number;
    failuresInARow: number;
  };
  close(): Promise<void>;
};

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
  };
  if (layers.namespaces && !config.bwrapPath) throw new Error("namespaces need bwrap");
  const pool = createPool({
    size: config.poolSize,
    spec,
    workRoot: config.workRoot,
    logger: config.logger,
  });
  const gate = createGate({ maxRunning: config.maxConcurrency, maxQueued: config.queueSize });

  const run = async (code: string, timeoutMs: number): Promise<RunResult> => {
    const verdict = layers.static ? checkProgram(code) : transpileOnly(code);
    if (!verdict.ok) {
      return {
        output: "",
        error: `${verdict.name}: ${verdict.message}`,
        executionTime: 0,
        timedOut: false,
      };
    }
    return gate.run(async () => {
      const sandbox = await pool.take(config.acquireTimeoutMs);
      try {
        const outcome = await sandbox.run(verdict.js, {
          timeoutMs,
          maxOutputBytes: config.maxOutputBytes,
        });
        return toRunResult(outcome, {
          timeoutMs,
          memoryMb: config.limits.memoryMb,
          maxOutputBytes: config.maxOutputBytes,
          paths: pathReplacements(spec, sandbox.workDir),
        });
      } finally {
        // Killed and cleaned up after the answer: the run is over, the process no longer matters.
        void sandbox.dispose();
        pool.replenish();
      }
    });
  };

  return {
    layers,
    run,
    stats: () => ({ ...gate.stats(), ...pool.stats() }),
    close: () => pool.close(),
  };
}
