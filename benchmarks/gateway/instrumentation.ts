#!/usr/bin/env bun
/**
 * The gateway's own CPU per request with metrics and tracing off and on, without the network:
 * the real app (`createApp`, served through `scopedFetch` as `serve()` serves it) with the
 * upstream `fetch` answered in-process, so what is measured is the gateway's JS (routing,
 * headers, the access log, metrics, spans, and with tracing the export of the sampled spans to
 * a sink over loopback HTTP). Each variant runs in a process of its own, in alternating rounds;
 * the figure is the process's CPU time per request, the least over the rounds (other work on the
 * machine only ever adds to it). A steadier companion to observability.ts on a busy machine.
 *
 *   bun benchmarks/gateway/instrumentation.ts [--requests 100000] [--rounds 5]
 *     [--variants off,metrics,trace:0,trace:0.1,trace:1,all:0.1,all:1]
 */
import { parseArgs } from "node:util";
import {
  createLogger,
  createMetrics,
  scopedFetch,
  startTracing,
} from "../../packages/server/src/index.ts";
import { median } from "../stats.ts";
import { usPerRequestOf } from "./child-run.ts";
import { startCollector } from "./collector.ts";
import { stubbedGateway } from "./stubbed-gateway.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    rounds: { type: "string", default: "5" },
    variants: { type: "string", default: "off,metrics,trace:0,trace:0.1,trace:1,all:0.1,all:1" },
    child: { type: "string" },
    sink: { type: "string" },
  },
});
const requests = Number(values.requests);

if (values.child !== undefined) {
  // One variant: serve `requests` requests, 50 at a time, and print the CPU time each took.
  // `all:0.01:1000`: metrics + tracing, 1 % sampled, batches exported every 1000 ms (5000 if unsaid).
  const [what = "off", ratio = "1", delay = "5000"] = values.child.split(":");
  const logger = createLogger({
    service: "gateway",
    level: "info",
    sink: { write: () => {}, flush: async () => {} },
  });
  if (what === "trace" || what === "all") {
    await startTracing({
      service: "gateway",
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: values.sink,
        OTEL_TRACES_SAMPLER_ARG: Number(ratio),
        OTEL_BSP_SCHEDULE_DELAY: Number(delay),
      },
      logger,
    });
  }
  const metrics = what === "metrics" || what === "all" ? createMetrics("gateway") : undefined;
  const app = stubbedGateway({ logger, ...(metrics ? { metrics } : {}) });
  const handle = scopedFetch(app);
  const batch = async (count: number) => {
    for (let done = 0; done < count; done += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const response = await handle(new Request("http://127.0.0.1:3000/api/leaderboard"));
          await response.arrayBuffer();
        }),
      );
      // Access-log lines and server spans end just after each response (setImmediate).
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await batch(20_000); // warm-up: JIT
  const before = process.cpuUsage();
  await batch(requests);
  const used = process.cpuUsage(before);
  console.log(JSON.stringify({ usPerRequest: (used.user + used.system) / requests }));
  process.exit(0);
}

const collector = await startCollector();
const { sink } = collector;
const variants = values.variants.split(",");
const results = new Map<string, number[]>();
console.log(
  `gateway JS per request, ${requests} requests per run, ${values.rounds} rounds; Bun ${Bun.version}; load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`,
);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const variant of round % 2 === 0 ? variants : variants.toReversed()) {
    const usPerRequest = await usPerRequestOf(import.meta.path, [
      `--child=${variant}`,
      `--requests=${requests}`,
      `--sink=${collector.url}`,
    ]);
    results.set(variant, [...(results.get(variant) ?? []), usPerRequest]);
  }
}
collector.stop();
const least = (variant: string) => Math.min(...(results.get(variant) ?? [Number.NaN]));
const off = least(variants[0] ?? "off");
console.log(`\n| variant | CPU µs/request (least) | median | added over ${variants[0]} |`);
console.log("|---|---:|---:|---:|");
for (const variant of variants) {
  const runs = results.get(variant) ?? [];
  console.log(
    `| ${variant} | ${least(variant).toFixed(2)} | ${median(runs).toFixed(2)} | ${(least(variant) - off).toFixed(2)} |`,
  );
}
console.log(`\nsink: ${sink.spans} spans received`);
