import type { BenchmarkType } from "@platform/contracts/benchmark";
import { arrayKernel } from "./array.ts";
import { cryptoKernel } from "./crypto.ts";
import { jsonKernel } from "./json.ts";
import { stringKernel } from "./string.ts";
import type { KernelFactory } from "./types.ts";

export type { Kernel, KernelFactory } from "./types.ts";

/** The one workload per benchmark type; the endpoint and benchmarks/bench-accuracy both use it. */
export const kernels: Record<BenchmarkType, KernelFactory> = {
  json: jsonKernel,
  array: arrayKernel,
  string: stringKernel,
  crypto: cryptoKernel,
};
