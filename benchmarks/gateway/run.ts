#!/usr/bin/env bun
/**
 * Leaderboard GET through three paths in ONE run, with the same load generator (wrk):
 * direct to the app, through our gateway, and through nginx as a loopback reverse proxy with
 * upstream keep-alive. Prints throughput, p50/p99 latency, each proxy's CPU time per request,
 * and the ratios the target is stated in. A bare 15-line Bun fetch proxy runs alongside as the
 * floor: what any proxy built on Bun's HTTP client costs before doing anything of its own.
 *
 *   bun benchmarks/gateway/run.ts [--duration 10] [--connections 50]
 *
 * Needs wrk and nginx (Debian: apt-get install wrk nginx). Loopback only, bounded in time.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, waitForHttp } from "../../packages/server/test/support/ports.ts";
import { median } from "../stats.ts";
import { type Result, wrk } from "./wrk.ts";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const root = join(import.meta.dir, "../..");

for (const tool of ["wrk", "nginx"]) {
  if (!Bun.which(tool) && !Bun.which(tool, { PATH: "/usr/sbin:/usr/bin" })) {
    console.error(`${tool} is required: apt-get install ${tool}`);
    process.exit(2);
  }
}

const children: ReturnType<typeof Bun.spawn>[] = [];
const tmp = mkdtempSync(join(tmpdir(), "gateway-bench-"));
const cleanup = () => {
  for (const child of children) child.kill("SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

function start(cmd: string[], env: Record<string, string>, cwd = root) {
  // Production-like: access logs on, written to /dev/null by every proxy.
  const child = Bun.spawn(cmd, {
    cwd,
    env: { ...process.env, ...env },
    stdout: "ignore",
    stderr: "inherit",
  });
  children.push(child);
  return child;
}

try {
  const ports = {
    app: await freePort(),
    gateway: await freePort(),
    gatewayBunServe: await freePort(),
    bare: await freePort(),
    nginx1: await freePort(),
    nginx2: await freePort(),
  };
  start(
    ["bun", "src/index.ts"],
    // The upstream on Bun.serve whatever the default: the same for every path measured.
    {
      LEADERBOARD_PORT: String(ports.app),
      HOST: "127.0.0.1",
      LEADERBOARD_RATE_LIMIT: "100000",
      HTTP_PIPELINING: "false",
    },
    join(root, "apps/leaderboard"),
  );
  const gateway = start(
    ["bun", "src/index.ts"],
    { GATEWAY_PORT: String(ports.gateway), HOST: "127.0.0.1", LEADERBOARD_PORT: String(ports.app) },
    join(root, "apps/gateway"),
  );
  // The same gateway on Bun.serve (HTTP_PIPELINING=false): what answering pipelined requests costs.
  const gatewayBunServe = start(
    ["bun", "src/index.ts"],
    {
      GATEWAY_PORT: String(ports.gatewayBunServe),
      HOST: "127.0.0.1",
      LEADERBOARD_PORT: String(ports.app),
      HTTP_PIPELINING: "false",
    },
    join(root, "apps/gateway"),
  );
  const bare = start(["bun", join(import.meta.dir, "bare-proxy.ts")], {
    PORT: String(ports.bare),
    UPSTREAM: `http://127.0.0.1:${ports.app}`,
  });
  const nginxConf = (port: number, workers: number | "auto") => {
    const path = join(tmp, `nginx-${port}.conf`);
    writeFileSync(
      path,
      `worker_processes ${workers}; daemon off; pid ${tmp}/nginx-${port}.pid; error_log ${tmp}/error-${port}.log;
events { worker_connections 4096; }
http {
  access_log /dev/null combined;
  upstream leaderboard { server 127.0.0.1:${ports.app}; keepalive 128; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://leaderboard;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}`,
    );
    return path;
  };
  const nginxBin = Bun.which("nginx") ?? "/usr/sbin/nginx";
  const nginx1 = start([nginxBin, "-c", nginxConf(ports.nginx1, 1), "-p", tmp], {});
  start([nginxBin, "-c", nginxConf(ports.nginx2, "auto"), "-p", tmp], {});

  const path = "/api/leaderboard";
  const direct = `http://127.0.0.1:${ports.app}${path}`;
  await waitForHttp(direct);
  await waitForHttp(`http://127.0.0.1:${ports.gateway}/gateway/live`);
  await waitForHttp(`http://127.0.0.1:${ports.gatewayBunServe}/gateway/live`);
  await waitForHttp(`http://127.0.0.1:${ports.bare}${path}`);
  await waitForHttp(`http://127.0.0.1:${ports.nginx1}${path}`);
  await waitForHttp(`http://127.0.0.1:${ports.nginx2}${path}`);
  for (let i = 0; i < 10; i++) {
    await fetch(direct, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ playerName: `player${i}`, score: 1000 - i }),
    });
  }
  // nginx's worker processes are the master's children.
  const nginxWorkers = async (masterPid: number) =>
    (await Bun.$`pgrep -P ${masterPid}`.nothrow().text()).split("\n").filter(Boolean).map(Number);
  const targets = [
    { name: "direct", url: direct, pids: async () => [] as number[] },
    {
      name: "gateway (ours, the default)",
      url: `http://127.0.0.1:${ports.gateway}${path}`,
      pids: async () => [gateway.pid],
    },
    {
      name: "gateway, HTTP_PIPELINING=false",
      url: `http://127.0.0.1:${ports.gatewayBunServe}${path}`,
      pids: async () => [gatewayBunServe.pid],
    },
    {
      name: "bare Bun fetch proxy (floor)",
      url: `http://127.0.0.1:${ports.bare}${path}`,
      pids: async () => [bare.pid],
    },
    {
      name: "nginx, 1 worker",
      url: `http://127.0.0.1:${ports.nginx1}${path}`,
      pids: () => nginxWorkers(nginx1.pid),
    },
    {
      name: "nginx, auto workers",
      url: `http://127.0.0.1:${ports.nginx2}${path}`,
      pids: async () => [] as number[],
    },
  ];

  console.log(
    `leaderboard GET, wrk -t2, ${rounds} rounds; Bun ${Bun.version}; ${navigator.hardwareConcurrency} CPUs`,
  );
  for (const target of targets) await wrk(target.url, 2, connections); // warm-up, JIT and pools

  const results: Record<string, { load: Result[]; single: Result[] }> = {};
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const entry = results[target.name] ?? { load: [], single: [] };
      results[target.name] = entry;
      entry.load.push(await wrk(target.url, duration, connections, await target.pids()));
      entry.single.push(await wrk(target.url, Math.max(3, duration / 2), 1));
    }
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, { load, single }]) => [
      name,
      {
        rps: median(load.map((r) => r.rps)),
        p50: median(load.map((r) => r.p50)),
        p99: median(load.map((r) => r.p99)),
        cpu: median(load.map((r) => r.cpuUsPerRequest ?? Number.NaN)),
        p50c1: median(single.map((r) => r.p50)),
        p99c1: median(single.map((r) => r.p99)),
      },
    ]),
  );
  const f = (n: number, digits = 3) => (Number.isNaN(n) ? "-" : n.toFixed(digits));
  console.log(
    `\n| path | req/s (c=${connections}) | p50 ms | p99 ms | proxy CPU µs/req | p50 ms (c=1) | p99 ms (c=1) |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [name, s] of Object.entries(summary)) {
    console.log(
      `| ${name} | ${s.rps.toFixed(0)} | ${f(s.p50)} | ${f(s.p99)} | ${f(s.cpu, 1)} | ${f(s.p50c1)} | ${f(s.p99c1)} |`,
    );
  }
  const ours = summary["gateway (ours)"];
  const nginx = summary["nginx, 1 worker"];
  const nginxAuto = summary["nginx, auto workers"];
  const app = summary.direct;
  if (ours && nginx && nginxAuto && app) {
    console.log(
      `\nthroughput, gateway / nginx (1 worker): ${(ours.rps / nginx.rps).toFixed(2)}  (target ≥ 1.00)`,
    );
    console.log(`throughput, gateway / nginx (auto):     ${(ours.rps / nginxAuto.rps).toFixed(2)}`);
    console.log(`throughput, gateway / direct:            ${(ours.rps / app.rps).toFixed(2)}`);
    console.log(
      `p50 added over direct, c=1:  gateway ${f(ours.p50c1 - app.p50c1)} ms, nginx ${f(nginx.p50c1 - app.p50c1)} ms  (target ≤ 0.5 ms)`,
    );
    console.log(
      `p50 added over direct, c=${connections}: gateway ${f(ours.p50 - app.p50)} ms, nginx ${f(nginx.p50 - app.p50)} ms`,
    );
    const floor = summary["bare Bun fetch proxy (floor)"];
    console.log(
      `proxy CPU per request: gateway ${f(ours.cpu, 1)} µs, bare Bun fetch proxy ${f(floor?.cpu ?? Number.NaN, 1)} µs, nginx ${f(nginx.cpu, 1)} µs`,
    );
  }
} finally {
  cleanup();
}
