/**
 * The drills' stack, as real processes on loopback: a Redis of its own (persistent, so an
 * acknowledged write must survive its restart), a fresh PostgreSQL database on the machine's
 * cluster (or TEST_DATABASE_URL's server), two replicas of every app and one gateway in front.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, freePorts, waitForHttp } from "../../packages/server/test/support/ports.ts";
import { testBackends } from "../../scripts/backends.ts";

export const APPS = ["admissions", "leaderboard", "runner", "bench", "web"] as const;
export type AppName = (typeof APPS)[number];
export type Replica = {
  app: AppName;
  index: number;
  port: number;
  proc?: Bun.Subprocess;
  /** Where its current process prints: `<output>.log` (stdout) and `<output>.err`. */
  output?: string;
};
/** A replica that exited while nobody was stopping it, with the end of what it printed. */
export type Crash = {
  replica: string;
  at: number;
  exitCode: number | null;
  signal: string | null;
  output: string;
};

const root = join(import.meta.dir, "../..");
const sh = (cmd: string[]) => Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
const livePath = (app: AppName) => (app === "admissions" ? "/health/live/" : "/health/live");

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** The last lines a replica's process printed (its `output` files). */
export async function lastOutput(output: string, lines = 15): Promise<string> {
  const tail = async (path: string) =>
    (
      await Bun.file(path)
        .text()
        .catch(() => "")
    )
      .split("\n")
      .slice(-lines)
      .join("\n");
  return `${await tail(`${output}.err`)}\n${await tail(`${output}.log`)}`.trim();
}

export async function startStack() {
  const tmp = mkdtempSync(join(tmpdir(), "drills-"));
  const redisPort = await freePort();
  let redis: Bun.Subprocess | undefined;
  const startRedis = () => {
    redis = Bun.spawn(
      ["redis-server", "--port", String(redisPort), "--bind", "127.0.0.1", "--dir", tmp],
      { stdout: "ignore", stderr: "inherit" },
    );
  };
  const redisUp = () => sh(["redis-cli", "-p", String(redisPort), "ping"]).stdout.includes("PONG");
  startRedis();
  for (let i = 0; i < 50 && !redisUp(); i++) await Bun.sleep(100);
  sh(["redis-cli", "-p", String(redisPort), "config", "set", "appendonly", "yes"]);
  sh(["redis-cli", "-p", String(redisPort), "config", "set", "appendfsync", "always"]);

  const backends = await testBackends({ TEST_REDIS_URL: `redis://127.0.0.1:${redisPort}` });
  const pgServer = backends.env.TEST_DATABASE_URL;
  if (!pgServer || !redisUp()) {
    redis?.kill();
    throw new Error(`drills need PostgreSQL and Redis: ${backends.skipped.join("; ")}`);
  }
  const database = `drills_${process.pid}`;
  sh(["su", "postgres", "-c", `createdb -O platform ${database}`]);
  const databaseUrl = pgServer.replace(/\/[^/]*$/, `/${database}`);
  const psql = (query: string) =>
    sh(["su", "postgres", "-c", `psql -qtA -d ${database} -c "${query}"`])
      .stdout.toString()
      .split("\n")
      .filter(Boolean);
  const cluster = sh(["pg_lsclusters", "-h"]).stdout.toString().split(/\s+/);

  const common = {
    ...process.env,
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    // The load comes from one address: the per-client limits are not what is drilled.
    LEADERBOARD_RATE_LIMIT: "1000000",
    RUNNER_RATE_LIMIT: "1000000",
    RUNNER_CLIENT_MAX_RUNS: "64",
    RUNNER_CLIENT_SANDBOX_MS: "3600000",
    BENCH_RATE_LIMIT: "1000000",
    // A benchmark disturbed by the load is run again (up to 3 times by default), so with one
    // replica away its queue of 16 filled and answered 503 BENCH_BUSY: capacity, not a dropped
    // request, and not what is drilled. One run per request and a longer queue keep it out.
    BENCH_MAX_ATTEMPTS: "1",
    BENCH_QUEUE_MAX: "128",
    ADMISSIONS_REGISTER_RATE_LIMIT: "1000000",
    ADMISSIONS_UPLOAD_RATE_LIMIT: "100000",
    DATABASE_URL: databaseUrl,
    ADMISSIONS_DOCUMENTS_DIR: join(tmp, "documents"),
    ADMISSIONS_JOBS_INTERVAL_MS: "60000",
    // On SIGTERM readiness turns 503 this long before the listener closes: past the gateway's
    // next check (every 500 ms here), so nothing new is sent to a replica that is going away.
    SHUTDOWN_DRAIN_MS: "1500",
  };
  // Migrates the new database and creates the admin that opens the journeys' intake.
  const admin = { email: "drill-admin@example.com", password: "drill-admin-password" };
  const created = Bun.spawnSync(
    ["bun", "run", "create-admin", "--", "--email", admin.email, "--password", admin.password],
    { cwd: join(root, "apps/admissions"), env: common },
  );
  if (created.exitCode !== 0) throw new Error(`create-admin: ${created.stderr.toString()}`);

  // Taken together, so no two replicas can be handed one port (ports.ts): a replica that
  // listens late (the bench warms up first) would then never start, nor come back.
  const ports = await freePorts(APPS.length * 2);
  const replicas: Replica[] = APPS.flatMap((app, i) =>
    [1, 2].map((index) => ({ app, index, port: ports[i * 2 + index - 1] ?? 0 })),
  );
  const crashes: Crash[] = [];
  /** Processes the drill stopped (kill -9, SIGTERM): any other exit is a crash, and reported. */
  const stopped = new WeakSet<Bun.Subprocess>();
  let starts = 0;
  const startReplica = (r: Replica) => {
    // Each start prints to files of its own, read back only if it dies unasked.
    const out = join(tmp, `${r.app}-${r.index}-${++starts}`);
    r.output = out;
    r.proc = Bun.spawn(["bun", "src/index.ts"], {
      cwd: join(root, "apps", r.app),
      env: { ...common, [`${r.app.toUpperCase()}_PORT`]: String(r.port) },
      stdout: Bun.file(`${out}.log`),
      stderr: Bun.file(`${out}.err`),
      onExit: async (proc, exitCode, signal) => {
        if (stopped.has(proc)) return;
        const at = Date.now();
        crashes.push({
          replica: `${r.app} ${r.index}`,
          at,
          exitCode,
          signal: signal === null ? null : String(signal),
          output: await lastOutput(out),
        });
      },
    });
  };
  /** Stops a replica on purpose (kill -9 or SIGTERM): its exit is not a crash. */
  const stopReplica = (r: Replica, signal: "SIGKILL" | "SIGTERM") => {
    if (r.proc) stopped.add(r.proc);
    r.proc?.kill(signal);
    return r.proc?.exited;
  };
  for (const r of replicas) startReplica(r);
  for (const r of replicas)
    await waitForHttp(`http://127.0.0.1:${r.port}${livePath(r.app)}`, 90_000);

  const gatewayPort = await freePort();
  const urls = (app: AppName) =>
    replicas
      .filter((r) => r.app === app)
      .map((r) => `http://127.0.0.1:${r.port}`)
      .join(",");
  // The gateway's warnings say why an upstream failed (refused, reset, timeout): kept, counted.
  const gatewayLog = Bun.file(join(tmp, "gateway.log"));
  const gateway = Bun.spawn(["bun", "src/index.ts"], {
    cwd: join(root, "apps/gateway"),
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      GATEWAY_PORT: String(gatewayPort),
      ...Object.fromEntries(APPS.map((app) => [`${app.toUpperCase()}_URL`, urls(app)])),
      GATEWAY_HEALTH_INTERVAL_MS: "500",
    },
    stdout: gatewayLog,
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${gatewayPort}`;
  await waitForHttp(`${base}/gateway/live`, 30_000);

  const pgctl = (action: string, ...extra: string[]) =>
    Bun.spawn(["pg_ctlcluster", cluster[0] ?? "15", cluster[1] ?? "main", action, ...extra]).exited;

  return {
    base,
    admin,
    replicas,
    startReplica,
    stopReplica,
    crashes,
    psql,
    /** Our Redis's members of a hash (acknowledged leaderboard entries are looked for there). */
    redisHashValues: (key: string) =>
      sh(["redis-cli", "-p", String(redisPort), "hvals", key])
        .stdout.toString()
        .split("\n")
        .filter(Boolean),
    async stopRedis() {
      await Bun.spawn(["redis-cli", "-p", String(redisPort), "shutdown"]).exited;
      await redis?.exited;
    },
    startRedis,
    gatewayLogText: () => gatewayLog.text(),
    /** Upstream failures the gateway logged: when (epoch ms), and `upstream kind reason`. */
    async upstreamFailures(): Promise<{ at: number; what: string }[]> {
      const failures: { at: number; what: string }[] = [];
      for (const line of (await gatewayLog.text()).split("\n")) {
        if (!line.includes('"upstream failed"')) continue;
        const f = JSON.parse(line) as {
          time: string;
          upstream: string;
          kind: string;
          reason: string;
        };
        failures.push({ at: Date.parse(f.time), what: `${f.upstream} ${f.kind} ${f.reason}` });
      }
      return failures;
    },
    /** Stopping the cluster is only possible on this machine's own (not a TEST_DATABASE_URL). */
    canStopPostgres: !process.env.TEST_DATABASE_URL,
    stopPostgres: () => pgctl("stop", "-m", "fast"),
    startPostgres: () => pgctl("start"),
    async stop() {
      gateway.kill("SIGTERM");
      await Promise.all([gateway.exited, ...replicas.map((r) => stopReplica(r, "SIGTERM"))]);
      redis?.kill("SIGTERM");
      await redis?.exited;
      sh(["su", "postgres", "-c", `dropdb --if-exists ${database}`]);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
