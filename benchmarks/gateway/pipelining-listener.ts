#!/usr/bin/env bun
/**
 * What HTTP_PIPELINING costs: the gateway's CPU per request served by Bun.serve (`false`)
 * and by the pipelining listener (the default: node:http, pipelining-listener.ts). The real
 * app behind `listen()`, its upstream answered in-process (stubbed-gateway.ts), one client in
 * the same process sending requests one after another on one keep-alive connection. Each
 * variant runs in a process of its own, in alternating rounds; the figure is that process's
 * CPU time per request, the least over the rounds (other work only adds to it). The client's
 * share is the same in both, so the difference is the listener's.
 *
 *   bun benchmarks/gateway/pipelining-listener.ts [--requests 5000] [--rounds 3]
 */
import { parseArgs } from "node:util";
import { createLogger, listen } from "../../packages/server/src/index.ts";
import { median } from "../stats.ts";
import { usPerRequestOf } from "./child-run.ts";
import { stubbedGateway } from "./stubbed-gateway.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "5000" },
    rounds: { type: "string", default: "3" },
    child: { type: "string" },
  },
});
const requests = Number(values.requests);

if (values.child !== undefined) {
  const app = stubbedGateway({
    logger: createLogger({
      service: "gateway",
      level: "info",
      sink: { write: () => {}, flush: async () => {} },
    }),
  });
  const pipelining = values.child === "pipelining";
  const listener = await listen(app, { port: 0, hostname: "127.0.0.1", pipelining });
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  // Bun.fetch is still the real client: only the gateway's own upstream calls are stubbed.
  const ask = () =>
    Bun.fetch(`http://127.0.0.1:${listener.port}/api/leaderboard`).then((r) => r.text());
  for (let i = 0; i < 2_000; i++) await ask(); // warm-up: JIT
  const start = cpu();
  for (let i = 0; i < requests; i++) await ask();
  const used = cpu() - start;
  await listener.stop(true);
  console.log(JSON.stringify({ usPerRequest: used / requests }));
  process.exit(0);
}

const variants = ["bun", "pipelining"];
const results = new Map<string, number[]>();
console.log(
  `gateway CPU per request (server and client together, one connection), ${requests} requests, ${values.rounds} rounds; Bun ${Bun.version}; load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`,
);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const variant of round % 2 === 0 ? variants : variants.toReversed()) {
    const usPerRequest = await usPerRequestOf(import.meta.path, [
      `--child=${variant}`,
      `--requests=${requests}`,
    ]);
    results.set(variant, [...(results.get(variant) ?? []), usPerRequest]);
  }
}
const least = (variant: string) => Math.min(...(results.get(variant) ?? [Number.NaN]));
console.log("\n| listener | CPU µs/request (least) | median | added over Bun.serve |");
console.log("|---|---:|---:|---:|");
for (const variant of variants) {
  console.log(
    `| ${variant} | ${least(variant).toFixed(1)} | ${median(results.get(variant) ?? []).toFixed(1)} | ${(least(variant) - least("bun")).toFixed(1)} |`,
  );
}
