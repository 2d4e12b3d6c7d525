#!/usr/bin/env bun
/**
 * Failure drills under steady load, real processes on loopback, on PostgreSQL + Redis: two
 * replicas of the leaderboard and of admissions behind one gateway (URL lists, balanced), a load
 * of leaderboard reads and writes and catalog reads, and then, one after another: kill -9 a
 * leaderboard replica, kill -9 an admissions replica (each restarted after 2 s), SIGTERM a
 * leaderboard replica (restarted), Redis stopped for 3 s, PostgreSQL stopped for 3 s. For each
 * phase: requests sent, failed (by status), and how long after the event failures went on.
 * At the end every acknowledged score is looked for in Redis.
 *
 *   bun benchmarks/drills/run.ts [--rate 100] [--phase-seconds 6]
 *
 * Needs redis-server and the machine's PostgreSQL cluster (as root, like `bun run check`).
 * Prints what it measured; it asserts nothing. Loopback only, about a minute.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, waitForHttp } from "../../packages/server/test/support/ports.ts";
import { testBackends } from "../../scripts/backends.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "100" },
    "phase-seconds": { type: "string", default: "6" },
  },
});
const RATE = Number(values.rate);
const PHASE_MS = Number(values["phase-seconds"]) * 1000;
const root = join(import.meta.dir, "../..");
const tmp = mkdtempSync(join(tmpdir(), "drills-"));
const sh = (cmd: string[]) => Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });

// Redis of our own (persistent: an acknowledged write must survive its restart).
const redisPort = await freePort();
let redis: ReturnType<typeof Bun.spawn> | undefined;
const startRedis = () => {
  redis = Bun.spawn(
    ["redis-server", "--port", String(redisPort), "--bind", "127.0.0.1", "--dir", tmp],
    { stdout: "ignore", stderr: "inherit" },
  );
};
const redisUp = () => sh(["redis-cli", "-p", String(redisPort), "ping"]).stdout.includes("PONG");
startRedis();
Bun.spawnSync(["sleep", "0.3"]);
sh(["redis-cli", "-p", String(redisPort), "config", "set", "appendonly", "yes"]);
sh(["redis-cli", "-p", String(redisPort), "config", "set", "appendfsync", "always"]);
const backends = await testBackends({ TEST_REDIS_URL: `redis://127.0.0.1:${redisPort}` });
const pgServer = backends.env.TEST_DATABASE_URL;
if (!pgServer || !redisUp()) {
  console.error(`drills need PostgreSQL and Redis: ${backends.skipped.join("; ")}`);
  process.exit(2);
}
const database = `drills_${process.pid}`;
sh(["su", "postgres", "-c", `createdb -O platform ${database}`]);
const databaseUrl = pgServer.replace(/\/[^/]*$/, `/${database}`);
const [pgVersion, pgName] = sh(["pg_lsclusters", "-h"]).stdout.toString().split(/\s+/);

type Replica = { app: string; port: number; proc?: ReturnType<typeof Bun.spawn> };
const common = {
  LOG_LEVEL: "warn",
  HOST: "127.0.0.1",
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  LEADERBOARD_RATE_LIMIT: "1000000",
  // On SIGTERM readiness turns 503 this long before the listener closes: past the gateway's
  // next check (every 500 ms here), so nothing new is sent to a replica that is going away.
  SHUTDOWN_DRAIN_MS: "1500",
};
function startReplica(replica: Replica) {
  replica.proc = Bun.spawn(["bun", "src/index.ts"], {
    cwd: join(root, "apps", replica.app),
    env: {
      ...process.env,
      ...common,
      [`${replica.app.toUpperCase()}_PORT`]: String(replica.port),
      ...(replica.app === "admissions"
        ? {
            DATABASE_URL: databaseUrl,
            ADMISSIONS_JOBS_INTERVAL_MS: "60000",
            ADMISSIONS_REGISTER_RATE_LIMIT: "1000000",
          }
        : {}),
    },
    stdout: "ignore",
    stderr: "ignore",
  });
}
const replicas: Record<"leaderboard" | "admissions", Replica[]> = {
  leaderboard: [
    { app: "leaderboard", port: await freePort() },
    { app: "leaderboard", port: await freePort() },
  ],
  admissions: [
    { app: "admissions", port: await freePort() },
    { app: "admissions", port: await freePort() },
  ],
};
const all = [...replicas.leaderboard, ...replicas.admissions];
for (const replica of all) startReplica(replica);
for (const r of all) {
  await waitForHttp(
    `http://127.0.0.1:${r.port}/health/live${r.app === "admissions" ? "/" : ""}`,
    60_000,
  );
}
const gatewayPort = await freePort();
const list = (rs: Replica[]) => rs.map((r) => `http://127.0.0.1:${r.port}`).join(",");
const gateway = Bun.spawn(["bun", "src/index.ts"], {
  cwd: join(root, "apps/gateway"),
  env: {
    ...process.env,
    LOG_LEVEL: "error",
    HOST: "127.0.0.1",
    GATEWAY_PORT: String(gatewayPort),
    LEADERBOARD_URL: list(replicas.leaderboard),
    ADMISSIONS_URL: list(replicas.admissions),
    GATEWAY_HEALTH_INTERVAL_MS: "500",
  },
  stdout: "ignore",
  stderr: "inherit",
});
const base = `http://127.0.0.1:${gatewayPort}`;
await waitForHttp(`${base}/gateway/live`, 30_000);

// The load, paced to RATE: leaderboard reads, score writes, catalog reads, and every tenth
// request a registration (a PostgreSQL write, acknowledged by its 201).
type Outcome = { at: number; status: number; kind: string };
const outcomes: Outcome[] = [];
const acknowledged: string[] = [];
const registered: string[] = [];
let seq = 0;
let running = true;
async function one(): Promise<void> {
  const n = seq++;
  const kind = n % 10 === 9 ? "register" : (["board", "score", "catalog"][n % 3] ?? "board");
  const started = Date.now();
  try {
    const res =
      kind === "board"
        ? await fetch(`${base}/api/leaderboard`)
        : kind === "catalog"
          ? await fetch(`${base}/api/v1/catalog/programs/`)
          : kind === "register"
            ? await fetch(`${base}/api/v1/auth/register/`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({
                  email: `drill-${n}@example.com`,
                  password: "correct horse battery staple",
                  fullName: "Drill",
                }),
              })
            : await fetch(`${base}/api/leaderboard`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ playerName: `drill-${n}`, score: n }),
              });
    await res.arrayBuffer();
    if (kind === "score" && res.status === 201) acknowledged.push(`drill-${n}`);
    if (kind === "register" && res.status === 201) registered.push(`drill-${n}@example.com`);
    outcomes.push({ at: started, status: res.status, kind });
  } catch {
    outcomes.push({ at: started, status: 0, kind });
  }
}
const load = (async () => {
  const inFlight = new Set<Promise<void>>();
  while (running) {
    const p = one().finally(() => inFlight.delete(p));
    inFlight.add(p);
    await Bun.sleep(1000 / RATE);
  }
  await Promise.all(inFlight);
})();

type Phase = { name: string; start: number; event: number; end: number };
const phases: Phase[] = [];
async function phase(name: string, act: () => Promise<void>) {
  const start = Date.now();
  await Bun.sleep(500);
  const event = Date.now();
  await act();
  await Bun.sleep(Math.max(0, PHASE_MS - (Date.now() - start)));
  phases.push({ name, start, event, end: Date.now() });
}
const restartAfter = async (replica: Replica, signal: "SIGKILL" | "SIGTERM") => {
  replica.proc?.kill(signal);
  await replica.proc?.exited;
  await Bun.sleep(2000);
  startReplica(replica);
};
const [lb1, lb2] = replicas.leaderboard;
const [ad1] = replicas.admissions;
if (!lb1 || !lb2 || !ad1) throw new Error("replicas missing");

await phase("steady", async () => {});
await phase("kill -9 a leaderboard replica, back after 2 s", () => restartAfter(lb1, "SIGKILL"));
await phase("kill -9 an admissions replica, back after 2 s", () => restartAfter(ad1, "SIGKILL"));
await phase("SIGTERM a leaderboard replica, back after 2 s", () => restartAfter(lb2, "SIGTERM"));
await phase("Redis down for 3 s", async () => {
  await Bun.spawn(["redis-cli", "-p", String(redisPort), "shutdown"]).exited;
  await redis?.exited;
  await Bun.sleep(3000);
  startRedis();
});
// Spawned, not spawnSync: the load must go on while PostgreSQL stops and starts.
const pgctl = (action: string, ...extra: string[]) =>
  Bun.spawn(["pg_ctlcluster", pgVersion ?? "15", pgName ?? "main", action, ...extra]).exited;
await phase("PostgreSQL down for 3 s", async () => {
  await pgctl("stop", "-m", "fast");
  await Bun.sleep(3000);
  await pgctl("start");
});
running = false;
await load;

// The board keeps the 10 best scores only (by design): they must be the 10 best acknowledged
// ones (scores rise with the request number), read from Redis itself.
const stored = new Set(
  sh(["redis-cli", "-p", String(redisPort), "hvals", "leaderboard:rank:scores:payload"])
    .stdout.toString()
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { playerName: string }).playerName),
);
const expected = acknowledged
  .map((name) => ({ name, score: Number(name.slice("drill-".length)) }))
  .sort((a, b) => b.score - a.score)
  .slice(0, 10)
  .map((entry) => entry.name);
const lost = expected.filter((name) => !stored.has(name));

console.log(
  `\ndrills at ${RATE} req/s, ${PHASE_MS / 1000} s a phase (${new Date().toISOString()})\n`,
);
console.log(
  "phase                                            sent  failed  by status            failures until",
);
for (const p of phases) {
  const inPhase = outcomes.filter((o) => o.at >= p.start && o.at < p.end);
  const failed = inPhase.filter((o) => o.status === 0 || o.status >= 500);
  const byStatus = Object.entries(
    failed.reduce<Record<string, number>>((acc, o) => {
      const key = `${o.kind}:${o.status || "conn"}`;
      acc[key] = (acc[key] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([k, v]) => `${k}×${v}`)
    .join(" ");
  const last = failed.at(-1);
  const until = last ? `+${((last.at - p.event) / 1000).toFixed(1)} s` : "-";
  console.log(
    `${p.name.padEnd(48)} ${String(inPhase.length).padStart(5)} ${String(failed.length).padStart(7)}  ${(byStatus || "-").padEnd(20)} ${until}`,
  );
}
console.log(
  `
scores acknowledged ${acknowledged.length}; the board's 10 best of them found in Redis: ${expected.length - lost.length} of ${expected.length}`,
);

// Every acknowledged registration, looked for in PostgreSQL.
const inDatabase = new Set(
  sh([
    "su",
    "postgres",
    "-c",
    `psql -qtA -d ${database} -c "SELECT email FROM users WHERE email LIKE 'drill-%'"`,
  ])
    .stdout.toString()
    .split("\n")
    .filter(Boolean),
);
const missing = registered.filter((email) => !inDatabase.has(email));
console.log(
  `registrations acknowledged ${registered.length}; found in PostgreSQL ${registered.length - missing.length}`,
);

gateway.kill("SIGTERM");
for (const r of all) r.proc?.kill("SIGTERM");
await Promise.all([gateway.exited, ...all.map((r) => r.proc?.exited)]);
redis?.kill("SIGTERM");
sh(["su", "postgres", "-c", `dropdb --if-exists ${database}`]);
rmSync(tmp, { recursive: true, force: true });
