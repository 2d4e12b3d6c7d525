import { describe, expect, test } from "bun:test";
import type { BenchmarkType } from "@platform/contracts/benchmark";
import { createRunHistory, DISTURBED_FACTOR, HISTORY_SIZE } from "../src/runner/history.ts";
import type { RunReport } from "../src/runner/protocol.ts";
import { BenchmarkFailedError, type RunAttempt } from "../src/runner/run-in-worker.ts";
import { createBenchmarkRunner, type RunnerOptions } from "../src/runner/runner.ts";

const ITERATIONS = 1_000;

/** A report whose mean iteration takes `meanNs`. */
const report = (meanNs: number): RunReport => ({
  ok: true,
  totalNs: meanNs * ITERATIONS,
  stats: { min: 1, median: 1, p99: 1, mean: meanNs / 1_000, max: 1 },
  checksum: 7,
});

/** A stand-in for the worker that answers the scripted mean times in order, and logs them. */
function scripted(means: number[]) {
  const made: number[] = [];
  const attempt: RunAttempt = async () => {
    const meanNs = means.shift();
    if (meanNs === undefined) throw new Error("more runs than scripted");
    made.push(meanNs);
    return report(meanNs);
  };
  return { attempt, made };
}

const options = (overrides: Partial<RunnerOptions> = {}): RunnerOptions => ({
  iterations: ITERATIONS,
  warmupIterations: 0,
  timeoutMs: 1_000,
  maxWaiting: 4,
  maxAttempts: 3,
  retryPauseMs: 0,
  ...overrides,
});

/** Runs `type` once per scripted mean and returns the answered mean times and attempts. */
async function answers(means: number[], runs: number, overrides?: Partial<RunnerOptions>) {
  const { attempt, made } = scripted(means);
  const runner = createBenchmarkRunner(options(overrides), attempt);
  const answered: { meanNs: number; attempts: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await runner.run("json");
    answered.push({ meanNs: run.totalNs / run.iterations, attempts: run.attempts });
  }
  return { answered, made };
}

describe("run history", () => {
  const type: BenchmarkType = "array";

  test("no reference before two runs; then the median of the latest runs", () => {
    const history = createRunHistory();
    history.record(type, 100);
    expect(history.reference(type)).toBeUndefined();
    expect(history.isDisturbed(type, 1_000)).toBe(false);
    history.record(type, 120);
    expect(history.reference(type)).toBe(110);
    history.record(type, 90);
    expect(history.reference(type)).toBe(100);
    expect(history.reference("json")).toBeUndefined();
  });

  test("keeps only the latest runs, so the reference follows a lasting change", () => {
    const history = createRunHistory();
    for (let i = 0; i < HISTORY_SIZE; i++) history.record(type, 100);
    for (let i = 0; i < HISTORY_SIZE >> 1; i++) history.record(type, 200);
    expect(history.reference(type)).toBe(100);
    history.record(type, 200);
    expect(history.reference(type)).toBe(200);
  });

  test("disturbed means over the factor, not at it", () => {
    const history = createRunHistory();
    history.record(type, 100);
    history.record(type, 100);
    expect(history.isDisturbed(type, 100 * DISTURBED_FACTOR)).toBe(false);
    expect(history.isDisturbed(type, 100 * DISTURBED_FACTOR + 0.01)).toBe(true);
    expect(history.isDisturbed(type, 50)).toBe(false);
  });
});

describe("disturbed runs are made again", () => {
  test("runs in line with the history are answered at once", async () => {
    const { answered, made } = await answers([100, 104, 98, 109], 4);
    expect(answered.map((a) => a.attempts)).toEqual([1, 1, 1, 1]);
    expect(made).toEqual([100, 104, 98, 109]);
  });

  test("a run over 1.1x the recent median is made again and the new run answers", async () => {
    const { answered, made } = await answers([100, 100, 150, 101], 3);
    expect(made).toEqual([100, 100, 150, 101]);
    expect(answered.at(-1)).toEqual({ meanNs: 101, attempts: 2 });
  });

  test("the answer is the last attempt, not the fastest, once attempts run out", async () => {
    const { answered } = await answers([100, 100, 150, 130, 160], 3);
    expect(answered.at(-1)).toEqual({ meanNs: 160, attempts: 3 });
  });

  test("a lasting slow-down becomes the reference instead of being retried for ever", async () => {
    const quiet = Array.from({ length: HISTORY_SIZE }, () => 100);
    const slow = Array.from({ length: 40 }, () => 200);
    const { answered } = await answers([...quiet, ...slow], HISTORY_SIZE + 8);
    const attempts = answered.slice(HISTORY_SIZE).map((a) => a.attempts);
    // The answered slow runs enter the history; once they are its majority nothing is retried.
    expect(attempts.slice(0, 5)).toEqual([3, 3, 3, 3, 3]);
    expect(attempts.slice(5)).toEqual([1, 1, 1]);
  });

  test("maxAttempts 1 answers every first run", async () => {
    const { answered, made } = await answers([100, 100, 300], 3, { maxAttempts: 1 });
    expect(made).toEqual([100, 100, 300]);
    expect(answered.at(-1)).toEqual({ meanNs: 300, attempts: 1 });
  });

  test("a failed run is not retried", async () => {
    let calls = 0;
    const runner = createBenchmarkRunner(options(), async () => {
      calls++;
      return { ok: false, error: "RangeError: boom" };
    });
    expect(runner.run("json")).rejects.toThrow(new BenchmarkFailedError("RangeError: boom"));
    await Bun.sleep(0);
    expect(calls).toBe(1);
  });

  test("close() stops a run, and the pause before a retry does not outlive it", async () => {
    const signals: AbortSignal[] = [];
    const means = [100, 100, 150];
    const runner = createBenchmarkRunner(
      options({ retryPauseMs: 60_000 }),
      async (_order, { signal }) => {
        signals.push(signal);
        if (signal.aborted) throw new BenchmarkFailedError("the benchmark worker was stopped");
        return report(means.shift() ?? 100);
      },
    );
    await runner.run("json");
    await runner.run("json");
    // The third run is disturbed, so the runner pauses before making it again; close() then.
    const third = runner.run("json");
    await Bun.sleep(10);
    runner.close();
    expect(signals.at(-1)?.aborted).toBe(true);
    await expect(third).rejects.toBeInstanceOf(BenchmarkFailedError);
  });
});

describe("a real worker", () => {
  test("close() in the middle of a run stops its worker and fails the run as stopped", async () => {
    const runner = createBenchmarkRunner(options({ iterations: 10_000, warmupIterations: 10_000 }));
    const running = runner.run("json");
    await Bun.sleep(30);
    expect(runner.busy).toBe(true);
    runner.close();
    await expect(running).rejects.toThrow("the benchmark worker was stopped");
  });
});
