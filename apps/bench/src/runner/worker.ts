// Runs one benchmark off the request-handling thread. A fresh worker per run gives every run the
// same starting point: a cold JIT that its own warm-up brings to speed, type feedback from this
// kernel only, and a heap holding nothing but this run's data.
import { kernels } from "../kernels/index.ts";
import { measure } from "./measure.ts";
import type { RunOrder, RunReport } from "./protocol.ts";
import { iterationStats } from "./stats.ts";

// Inside a worker, `self` is the worker scope; Bun's types describe it as a Worker.
declare const self: Worker;

self.onmessage = (event: MessageEvent<RunOrder>) => {
  const { type, iterations, warmupIterations } = event.data;
  let report: RunReport;
  try {
    const kernel = kernels[type]();
    const { samplesNs, totalNs, checksum } = measure(kernel, { iterations, warmupIterations });
    report = { ok: true, totalNs, stats: iterationStats(samplesNs, totalNs), checksum };
  } catch (error) {
    report = {
      ok: false,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
  self.postMessage(report);
};
