#!/usr/bin/env bun
/**
 * What metrics and tracing cost the gateway, in ONE run: the same leaderboard GET through
 * gateways that differ only in their observability settings, measured in alternating rounds
 * with the same load generator (wrk). "off" counts no metrics (GATEWAY_METRICS_PORT unset) and
 * traces nothing (no OTEL endpoint); "on" serves /metrics and exports every sampled trace over
 * OTLP/HTTP to a sink in this process, which reads each export whole and counts its spans, as a
 * collector's receiver would. Prints throughput, latency and the gateway's CPU per request for
 * each, and each one's ratio to the first variant, taken round by round (the budget: metrics and
 * tracing on keep ≥ 95 % of the throughput), with the 95 % interval of the median ratio (from 6
 * rounds) and the budget's verdict, read both as measured and as CPU per request.
 *
 *   bun benchmarks/gateway/observability.ts [--duration 10] [--rounds 5] [--connections 50]
 *     [--variants off,again,all:0.01,all:0.1] [--no-pin] [--upstream static|leaderboard]
 *     [--no-fresh] [--warmup 2]
 *
 * Variants: `off`; `metrics` (metrics only); `trace:R` (tracing only, a share R of the traces
 * sampled; `trace:R:MS` also exports its batches every MS ms); `all:R` (both); `before:DIR`
 * (the gateway of another checkout, as it is: say, the commit before tracing); `again` (the
 * first once more: an A/A control). The first is the baseline the ratios are taken against.
 * The upstream is a fixed answer (`static-upstream.ts`) unless `--upstream leaderboard` runs
 * the real app. Every round starts every gateway afresh (`--no-fresh`: once for the whole run):
 * two processes of the same gateway can differ by several per cent for as long as they live
 * (where the JIT and the allocator happened to put things), which fresh processes turn into
 * round-to-round noise that the median over the rounds absorbs.
 *
 * Needs wrk (Debian: apt-get install wrk). Loopback only, bounded in time.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, waitForHttp } from "../../packages/server/test/support/ports.ts";
import { median, medianInterval, verdict } from "../stats.ts";
import { startCollector } from "./collector.ts";
import { assertOwnCode, type Result, wrk } from "./wrk.ts";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "5" },
    variants: { type: "string", default: "off,again,all:0.01,all:0.1" },
    pin: { type: "boolean", default: navigator.hardwareConcurrency >= 2 },
    upstream: { type: "string", default: "static" },
    fresh: { type: "boolean", default: true },
    warmup: { type: "string", default: "2" },
  },
  allowNegative: true,
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const root = join(import.meta.dir, "../..");

if (!Bun.which("wrk")) {
  console.error("wrk is required: apt-get install wrk");
  process.exit(2);
}

const children: ReturnType<typeof Bun.spawn>[] = [];
const cleanup = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

/**
 * With --pin (the default on two or more CPUs) each gateway runs alone on the last CPU and
 * everything else (this process, wrk, the leaderboard) on the others: the gateway is then the
 * bottleneck, so its throughput is what is measured, and the load generator and the upstream no
 * longer steal its CPU at random (unpinned, two identical gateways differed by up to 7 %).
 */
const gatewayCpu = navigator.hardwareConcurrency - 1;
if (values.pin) {
  const others = gatewayCpu === 1 ? "0" : `0-${gatewayCpu - 1}`;
  Bun.spawnSync(["taskset", "-acp", others, String(process.pid)], { stdout: "ignore" });
}

function start(cwd: string, env: Record<string, string>, pin = false) {
  const taskset = pin ? ["taskset", "-c", String(gatewayCpu)] : [];
  // Production-like: access logs on, written to /dev/null. taskset execs Bun: same pid.
  const child = Bun.spawn([...taskset, "bun", "src/index.ts"], {
    cwd,
    env: { ...process.env, HOST: "127.0.0.1", ...env },
    stdout: "ignore",
    stderr: "inherit",
  });
  children.push(child);
  return child;
}

const collector = await startCollector();
const { sink } = collector;

try {
  const appPort = await freePort();
  if (values.upstream === "leaderboard") {
    start(join(root, "apps/leaderboard"), {
      LEADERBOARD_PORT: String(appPort),
      LEADERBOARD_RATE_LIMIT: "100000",
    });
  } else {
    // The leaderboard's answer, fixed: the upstream then takes as little CPU as it can, so it
    // cannot become the bottleneck on the CPUs it shares with wrk.
    children.push(
      Bun.spawn(["bun", join(import.meta.dir, "static-upstream.ts")], {
        env: { ...process.env, PORT: String(appPort) },
        stdout: "ignore",
        stderr: "inherit",
      }),
    );
  }
  const direct = `http://127.0.0.1:${appPort}/api/leaderboard`;
  await waitForHttp(direct);
  for (let i = 0; i < 10 && values.upstream === "leaderboard"; i++) {
    await fetch(direct, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ playerName: `player${i}`, score: 1000 - i }),
    });
  }

  type Variant = {
    name: string;
    url: string;
    pid: number;
    metricsUrl?: string;
    stop(): Promise<void>;
  };
  type VariantSpec = { name: string; env: Record<string, string>; dir: string };
  const gateway = async ({ name, env, dir }: VariantSpec): Promise<Variant> => {
    const port = await freePort();
    const child = start(
      join(dir, "apps/gateway"),
      {
        GATEWAY_PORT: String(port),
        LEADERBOARD_PORT: String(appPort),
        ...env,
      },
      values.pin,
    );
    await waitForHttp(`http://127.0.0.1:${port}/gateway/live`);
    const metricsUrl = env.GATEWAY_METRICS_PORT
      ? `http://127.0.0.1:${env.GATEWAY_METRICS_PORT}/metrics`
      : undefined;
    return {
      name,
      url: `http://127.0.0.1:${port}/api/leaderboard`,
      pid: child.pid,
      ...(metricsUrl ? { metricsUrl } : {}),
      async stop() {
        child.kill("SIGTERM");
        await child.exited;
      },
    };
  };
  const otlp = collector.url;
  const variantSpecs: VariantSpec[] = [];
  const specs = values.variants.split(",");
  for (const [index, given] of specs.entries()) {
    // `again`: the first variant once more, in a process of its own (an A/A control: how far
    // two identical gateways differ in this run is the noise the other ratios carry).
    const again = given === "again" && index > 0;
    const spec = again ? (specs[0] ?? "off") : given;
    const [what = "", ratio = "1", delay] = spec.split(":");
    if (what === "before") {
      // Another checkout's gateway as it is (`--variants before:/path/to/checkout,...`).
      assertOwnCode(ratio);
      variantSpecs.push({ name: `before (${ratio})`, env: {}, dir: ratio });
      continue;
    }
    const metrics = what === "metrics" || what === "all";
    const tracing = what === "trace" || what === "all";
    if (!metrics && !tracing && what !== "off") throw new Error(`unknown variant ${spec}`);
    const name = [
      metrics ? "metrics" : "",
      tracing
        ? `tracing ${Number(ratio) * 100} % sampled${delay ? `, batches every ${delay} ms` : ""}`
        : "",
    ]
      .filter(Boolean)
      .join(" + ");
    const env: Record<string, string> = {};
    if (metrics) env.GATEWAY_METRICS_PORT = "";
    if (tracing)
      Object.assign(env, {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_TRACES_SAMPLER_ARG: ratio,
        ...(delay ? { OTEL_BSP_SCHEDULE_DELAY: delay } : {}),
      });
    variantSpecs.push({ name: `${name || "off"}${again ? " (again)" : ""}`, env, dir: root });
  }
  /** Every variant's gateway, started (a metrics port of its own each time) and warmed up. */
  const startAll = async () => {
    const started: Variant[] = [];
    for (const spec of variantSpecs) {
      const env = { ...spec.env };
      if (env.GATEWAY_METRICS_PORT !== undefined)
        env.GATEWAY_METRICS_PORT = String(await freePort());
      started.push(await gateway({ ...spec, env }));
    }
    // The JIT, the connection pools, and the sampled path's first few hundred runs.
    for (const variant of started) await wrk(variant.url, warmup, connections);
    return started;
  };

  const load = await Bun.file("/proc/loadavg").text();
  console.log(
    `leaderboard GET through the gateway (upstream: ${values.upstream}), wrk -t2 -c${connections}, ${rounds} rounds of ${duration} s, alternating; ${values.fresh ? "every gateway started afresh each round" : "one process per gateway for the whole run"}; ${values.pin ? `each gateway alone on CPU ${gatewayCpu}, the rest on the others` : "not pinned"}; Bun ${Bun.version}; ${navigator.hardwareConcurrency} CPUs; load average at start ${load.split(" ").slice(0, 3).join(" ")}`,
  );
  let variants = await startAll();
  const results = new Map<string, Result[]>();
  for (let round = 0; round < rounds; round++) {
    if (values.fresh && round > 0) {
      await Promise.all(variants.map((variant) => variant.stop()));
      variants = await startAll();
    }
    // Each round in a different order, so drift in the machine's load falls on all alike.
    const order = round % 2 === 0 ? variants : variants.toReversed();
    for (const variant of order) {
      const result = await wrk(variant.url, duration, connections, [variant.pid]);
      results.set(variant.name, [...(results.get(variant.name) ?? []), result]);
    }
  }

  // Each variant against the baseline (the first) in the same round, then the median of those
  // ratios: other work on the machine comes and goes, and a round's neighbours share it.
  const f = (n: number, digits = 3) => (Number.isNaN(n) ? "-" : n.toFixed(digits));
  const baseline = results.get(variants[0]?.name ?? "") ?? [];
  const summary = variants.map(({ name }) => {
    const runs = results.get(name) ?? [];
    const ratios = (pick: (r: Result) => number) =>
      runs.map((r, i) => pick(r) / pick(baseline[i] ?? r));
    const rpsRatios = ratios((r) => r.rps);
    const cpuRatios = ratios((r) => r.cpuUsPerRequest ?? Number.NaN);
    return {
      name,
      rps: median(runs.map((r) => r.rps)),
      rpsRatio: median(rpsRatios),
      rpsInterval: medianInterval(rpsRatios),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      cpu: median(runs.map((r) => r.cpuUsPerRequest ?? Number.NaN)),
      cpuRatio: median(cpuRatios),
      cpuInterval: medianInterval(cpuRatios),
      busy: median(runs.map((r) => r.cpuBusy ?? Number.NaN)),
      all: runs
        .map(
          (r) =>
            `${r.rps.toFixed(0)}${r.cpuBusy === undefined ? "" : ` (${(r.cpuBusy * 100).toFixed(0)} %)`}`,
        )
        .join(", "),
    };
  });
  const base = variants[0]?.name ?? "";
  console.log(
    `\n| gateway | req/s | vs ${base} | p50 ms | p99 ms | gateway CPU µs/req | vs ${base} | gateway busy | req/s (gateway busy), each round |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const s of summary) {
    console.log(
      `| ${s.name} | ${s.rps.toFixed(0)} | ${f(s.rpsRatio)} | ${f(s.p50)} | ${f(s.p99)} | ${f(s.cpu, 1)} | ${f(s.cpuRatio)} | ${f(s.busy * 100, 0)} % | ${s.all} |`,
    );
  }
  console.log(
    `\nMedians over the rounds; "vs ${base}": the median of each round's ratio to ${base} in that round. "gateway busy": its CPU time over the round's wall time (pinned to one CPU, 100 % means it was the bottleneck; less, it waited for wrk or the upstream, and its throughput understates what it costs).`,
  );
  // The budget (issue 17): metrics and tracing keep ≥ 95 % of the throughput. Read twice: as
  // measured, and as a gateway held to its CPU would serve (the reciprocal of its CPU per
  // request), since a gateway that was not quite the bottleneck hides part of what it costs.
  // Each verdict is the 95 % interval's, not the median's: "cannot tell" when it straddles.
  const range = (interval: [number, number] | undefined, scale = 1, digits = 3) =>
    interval
      ? `${f(interval[0] * scale, digits)}–${f(interval[1] * scale, digits)}`
      : "fewer than 6 rounds";
  console.log(
    `
Budget: ≥ 95 % of ${base}'s throughput; as CPU per request, at most × ${f(1 / 0.95)}. In brackets, the 95 % interval of the median over the rounds.`,
  );
  for (const s of summary.slice(1)) {
    console.log(
      `${s.name}: throughput ${f(s.rpsRatio * 100, 1)} % of ${base} (${range(s.rpsInterval, 100, 1)} %): ${verdict(s.rpsInterval, 0.95, true)}; gateway CPU per request × ${f(s.cpuRatio)} (${range(s.cpuInterval)}): ${verdict(s.cpuInterval, 1 / 0.95, false)}`,
    );
  }

  // What was on was really on: the counters moved and the sink received spans.
  for (const variant of variants) {
    if (!variant.metricsUrl) continue;
    const text = await (await fetch(variant.metricsUrl)).text();
    const counted = [...text.matchAll(/^http_requests_total\{[^}]*\} (\d+)$/gm)].reduce(
      (sum, [, value]) => sum + Number(value),
      0,
    );
    console.log(`${variant.name}: http_requests_total ${counted}`);
  }
  await Bun.sleep(6_000); // the last batches (OTEL_BSP_SCHEDULE_DELAY, 5 s)
  console.log(
    `sink: ${sink.spans} spans in ${sink.exports} exports (${(sink.bytes / 1e6).toFixed(1)} MB of OTLP JSON)`,
  );
} finally {
  cleanup();
  collector.stop();
}
