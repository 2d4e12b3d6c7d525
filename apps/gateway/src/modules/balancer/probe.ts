import type { Readiness } from "./model.ts";

/** Asks one readiness probe; any answer but 2xx within the deadline is "down". */
export async function probe(url: string, timeoutMs: number): Promise<Readiness> {
  const started = performance.now();
  const latency = () => Math.round((performance.now() - started) * 100) / 100;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok
      ? { status: "up", httpStatus: res.status, latencyMs: latency() }
      : { status: "down", httpStatus: res.status, latencyMs: latency(), reason: "not ready" };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : "unreachable";
    return { status: "down", latencyMs: latency(), reason };
  }
}
