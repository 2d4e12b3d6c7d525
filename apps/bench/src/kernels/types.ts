/**
 * One iteration of a workload. It returns a number derived from what it computed, so the caller
 * can fold every result into a checksum: work whose result is consumed cannot be dropped by the
 * JIT as dead code. `iteration` varies the input a little, so no result can be cached either.
 */
export type Kernel = (iteration: number) => number;

/** Builds the kernel's fixed input (outside any timing) and returns the kernel. */
export type KernelFactory = () => Kernel;
