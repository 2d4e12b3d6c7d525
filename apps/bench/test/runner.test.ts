import { describe, expect, test } from "bun:test";
import { BENCHMARK_TYPES } from "@platform/contracts/benchmark";
import { currentScope, runInScope } from "@platform/server";
import { kernels } from "../src/kernels/index.ts";
import { CHECKSUM_SEED, foldChecksum, measure } from "../src/runner/measure.ts";
import { createSerialQueue, QueueCancelledError, QueueFullError } from "../src/runner/queue.ts";
import { iterationStats, percentile } from "../src/runner/stats.ts";

describe("serial queue", () => {
  /** A task that records when it runs and finishes when told to. */
  function gate(log: string[], name: string) {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const task = async () => {
      log.push(`start ${name}`);
      await opened;
      log.push(`end ${name}`);
      return name;
    };
    return { task, open };
  }

  test("runs tasks one at a time, in arrival order", async () => {
    const queue = createSerialQueue(10);
    const log: string[] = [];
    const [a, b, c] = [gate(log, "a"), gate(log, "b"), gate(log, "c")];
    const results = [queue.run(a.task), queue.run(b.task), queue.run(c.task)];
    await Bun.sleep(0);
    expect(log).toEqual(["start a"]);
    expect(queue.waiting).toBe(2);
    c.open();
    b.open();
    await Bun.sleep(0);
    expect(log).toEqual(["start a"]);
    a.open();
    expect(await Promise.all(results)).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(queue.busy).toBe(false);
  });

  test("a waiting task runs in the scope of the request that queued it, not the one before", async () => {
    const queue = createSerialQueue(5);
    const log: string[] = [];
    const a = gate(log, "a");
    const first = runInScope({ requestId: "req-a" }, () => queue.run(a.task));
    const second = runInScope({ requestId: "req-b" }, () =>
      queue.run(async () => currentScope()?.requestId),
    );
    a.open();
    await first;
    expect(await second).toBe("req-b");
  });

  test("refuses past maxWaiting, and takes work again once there is room", async () => {
    const queue = createSerialQueue(1);
    const log: string[] = [];
    const [a, b] = [gate(log, "a"), gate(log, "b")];
    const first = queue.run(a.task);
    const second = queue.run(b.task);
    await expect(queue.run(async () => "c")).rejects.toBeInstanceOf(QueueFullError);
    a.open();
    b.open();
    await Promise.all([first, second]);
    expect(await queue.run(async () => "d")).toBe("d");
  });

  test("a waiting task whose signal aborts never runs; the others do", async () => {
    const queue = createSerialQueue(5);
    const log: string[] = [];
    const a = gate(log, "a");
    const abort = new AbortController();
    const first = queue.run(a.task);
    const cancelled = queue.run(async () => log.push("cancelled ran"), abort.signal);
    const third = queue.run(async () => "third");
    abort.abort();
    await expect(cancelled).rejects.toBeInstanceOf(QueueCancelledError);
    expect(queue.waiting).toBe(1);
    a.open();
    expect(await first).toBe("a");
    expect(await third).toBe("third");
    expect(log).not.toContain("cancelled ran");
  });

  test("an already aborted signal is refused at once", async () => {
    const queue = createSerialQueue(5);
    const ran: string[] = [];
    const call = queue.run(async () => ran.push("ran"), AbortSignal.abort());
    await expect(call).rejects.toBeInstanceOf(QueueCancelledError);
    expect(ran).toEqual([]);
    expect(queue.busy).toBe(false);
  });

  test("a failing task (thrown or rejected) does not stall the queue", async () => {
    const queue = createSerialQueue(5);
    const thrown = queue.run(() => {
      throw new Error("sync");
    });
    const rejected = queue.run(async () => {
      throw new Error("async");
    });
    const after = queue.run(async () => "after");
    const [a, b, c] = await Promise.allSettled([thrown, rejected, after]);
    expect(a?.status === "rejected" && String(a.reason)).toBe("Error: sync");
    expect(b?.status === "rejected" && String(b.reason)).toBe("Error: async");
    expect(c).toEqual({ status: "fulfilled", value: "after" });
  });

  test("clear() drops the waiting tasks and lets the running one finish", async () => {
    const queue = createSerialQueue(5);
    const log: string[] = [];
    const a = gate(log, "a");
    const running = queue.run(a.task);
    const waiting = queue.run(async () => "never");
    queue.clear();
    await expect(waiting).rejects.toBeInstanceOf(QueueCancelledError);
    a.open();
    expect(await running).toBe("a");
  });
});

describe("statistics", () => {
  test("nearest-rank percentiles", () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 1)).toBe(100);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile(new Float64Array(), 0.5)).toBeNaN();
  });

  test("per-iteration statistics in microseconds, from unsorted samples", () => {
    const samples = Float64Array.from([4_000, 1_000, 3_000, 2_000, 100_000]);
    expect(iterationStats(samples, 110_000)).toEqual({
      min: 1,
      median: 3,
      p99: 100,
      mean: 22,
      max: 100,
    });
    expect(iterationStats(Float64Array.from([1_000, 3_000]), 4_000).median).toBe(2);
  });
});

describe("measure", () => {
  test("runs warm-up then timed iterations with increasing indices, all results consumed", () => {
    const seen: number[] = [];
    const result = measure(
      (i) => {
        seen.push(i);
        return i * 3;
      },
      { iterations: 200, warmupIterations: 50 },
    );
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(result.samplesNs).toHaveLength(200);
    let expected = CHECKSUM_SEED;
    for (const i of seen) expected = foldChecksum(expected, i * 3);
    expect(result.checksum).toBe(expected);
    expect(result.totalNs).toBe(result.samplesNs.reduce((sum, ns) => sum + ns, 0));
    expect(Math.min(...result.samplesNs)).toBeGreaterThanOrEqual(0);
  });

  test("a different result anywhere changes the checksum", () => {
    const base = measure((i) => i, { iterations: 100, warmupIterations: 10 }).checksum;
    const changed = measure((i) => (i === 77 ? 0 : i), { iterations: 100, warmupIterations: 10 });
    expect(changed.checksum).not.toBe(base);
  });

  for (const type of BENCHMARK_TYPES) {
    test(`the ${type} kernel is deterministic and varies with the iteration`, () => {
      const [first, second] = [kernels[type](), kernels[type]()];
      const results = Array.from({ length: 64 }, (_, i) => first(i));
      expect(Array.from({ length: 64 }, (_, i) => second(i))).toEqual(results);
      expect(new Set(results).size).toBeGreaterThan(1);
      for (const value of results) expect(Number.isFinite(value)).toBe(true);
    });
  }
});
