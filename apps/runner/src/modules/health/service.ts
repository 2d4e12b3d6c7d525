import type { KernelLayers } from "../../sandbox/layers.ts";
import type { SandboxRunner } from "../../sandbox/runner.ts";
import type { RunnerHealth } from "./model.ts";

/** Sandbox starts failing this many times in a row mean the host cannot run programs now. */
export const FAILING_STARTS = 3;

export function layerReport(runner: SandboxRunner, kernel: KernelLayers): RunnerHealth["layers"] {
  const on = runner.layers;
  const switched = (enabled: boolean, detail: string) => ({ on: enabled, detail });
  return {
    static: switched(on.static, on.static ? "transpile, parse, reject" : "switched off"),
    lockdown: switched(on.lockdown, on.lockdown ? "blocked globals neutered" : "switched off"),
    seccomp: on.seccomp ? kernel.seccomp : switched(false, `off: ${kernel.seccomp.detail}`),
    namespaces: on.namespaces
      ? kernel.namespaces
      : switched(false, `off: ${kernel.namespaces.detail}`),
    rlimits: on.rlimits ? kernel.rlimits : switched(false, `off: ${kernel.rlimits.detail}`),
  };
}

export function poolCheck(runner: SandboxRunner) {
  return async () => {
    if (runner.unavailable) throw new Error(runner.unavailable);
    const files = runner.filesProblem();
    if (files) throw new Error(`${files}; it is being made again`);
    const { failuresInARow } = runner.stats();
    if (failuresInARow >= FAILING_STARTS) {
      throw new Error(`the last ${failuresInARow} sandboxes failed to start`);
    }
  };
}
