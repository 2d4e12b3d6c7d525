/**
 * One kernel under mitata, in a process of its own (run.ts starts one per type), so mitata's
 * measurement inherits no JIT or heap state from other kernels or from the HTTP client, just as
 * each endpoint run gets a fresh worker. Prints mitata's statistics (nanoseconds) as JSON.
 *
 *   bun benchmarks/bench-accuracy/mitata-kernel.ts json
 */
import { bench, do_not_optimize, run } from "mitata";
import { kernels } from "../../apps/bench/src/kernels/index.ts";
import { BENCHMARK_TYPES, type BenchmarkType } from "../../packages/contracts/src/benchmark.ts";

const type = process.argv[2] as BenchmarkType;
if (!BENCHMARK_TYPES.includes(type)) {
  console.error(`usage: mitata-kernel.ts <${BENCHMARK_TYPES.join("|")}>`);
  process.exit(2);
}
const kernel = kernels[type]();
let iteration = 0;
bench(type, () => do_not_optimize(kernel(iteration++)));
const { benchmarks } = await run({ format: "quiet" });
const stats = benchmarks[0]?.runs[0]?.stats;
if (!stats) throw new Error(`mitata produced no result for ${type}`);
console.log(JSON.stringify({ avg: stats.avg, p50: stats.p50, min: stats.min, max: stats.max }));
