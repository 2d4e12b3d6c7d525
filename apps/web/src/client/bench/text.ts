/** The bench page's words (the site is in English; the portal has its own catalogues). */
export const BENCH_TEXT = {
  workload: "Workload",
  run: "Run",
  running: "Running…",
  wait: (s: number) => `Wait ${s} s`,
  source: "What it does and its source",
  runningNote: (type: string) =>
    `Running 10,000 iterations of ${type} on the server; this takes a few seconds.`,
  empty: "No runs yet: choose a workload and press Run.",
  perIteration: "per iteration",
  opsPerSecond: "operations per second",
  headlineOf: (type: string) => `${type}, mean of 10,000 timed iterations`,
  total: "Total time",
  iterations: "Iterations",
  spread: "Fastest / median / 99th percentile / slowest",
  warmup: "Warm-up iterations (not timed)",
  attempts: "Attempts",
  timestamp: "Started",
  runtime: "Runtime",
  cpu: "CPU",
  cores: (model: string, cores: number) => `${model}, ${cores} cores`,
  quotaUnknown: "Runs are limited per minute; the quota shows after the first run.",
  quotaLeft: (left: number, limit: number | null) =>
    `${left}${limit === null ? "" : ` of ${limit}`} runs left; a run returns to the quota as the minute moves on.`,
  quotaNone: (limit: number | null, seconds: number) =>
    `0${limit === null ? "" : ` of ${limit}`} runs left: Run comes back in ${seconds} s.`,
  quotaBack: "A run is back in the quota: Run again.",
  chartTitle: "Time per iteration of each run this visit",
  chartY: "Time per iteration",
  chartX: "Runs this visit, by workload",
  chartCaption: (n: number) =>
    `Each bar is one run; its height and label are its mean time per iteration (${n} run${n === 1 ? "" : "s"}).`,
  compareHeading: "This visit's runs compared",
  compareNote: "Median time per iteration of each workload's runs; the fastest is 1×.",
  compareRow: (runs: number) => `${runs} run${runs === 1 ? "" : "s"}`,
  times: (x: string) => `${x}×`,
} as const;
