/**
 * The PostgreSQL server and Redis the check's second pass runs on, found or started here when
 * TEST_DATABASE_URL and TEST_REDIS_URL are not given: a throwaway Redis on a free loopback port
 * (stopped after the check), and the machine's PostgreSQL cluster (Debian's pg_ctlcluster; left
 * running, as a system service is) with a `platform` role and database for the tests.
 */
import { freePort } from "../packages/server/test/support/ports.ts";

export type Backends = {
  env: { TEST_DATABASE_URL?: string; TEST_REDIS_URL?: string };
  /** Why a backend is not there, when one is not. */
  skipped: string[];
  stop(): void;
};

const run = (cmd: string[]) => Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });

async function waitFor(ready: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (ready()) return true;
    await Bun.sleep(100);
  }
  return ready();
}

async function startRedis(): Promise<{ url: string; stop(): void } | string> {
  if (!Bun.which("redis-server")) return "redis-server is not installed";
  const port = await freePort();
  const server = Bun.spawn(
    [
      "redis-server",
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    { stdout: "ignore", stderr: "inherit" },
  );
  const url = `redis://127.0.0.1:${port}`;
  const up = await waitFor(
    () =>
      run(["redis-cli", "-p", String(port), "ping"])
        .stdout.toString()
        .includes("PONG"),
    10_000,
  );
  if (!up) {
    server.kill();
    return `redis-server did not answer on port ${port}`;
  }
  return { url, stop: () => server.kill() };
}

const asPostgres = (sql: string) =>
  run(["su", "postgres", "-c", `psql -qtAc ${JSON.stringify(sql).replaceAll("$", "\\$")}`]);

async function startPostgres(): Promise<string | { url: string }> {
  if (!Bun.which("pg_lsclusters")) return "PostgreSQL is not installed";
  if (process.getuid?.() !== 0) return "starting PostgreSQL needs root (or set TEST_DATABASE_URL)";
  // "15 main 5432 online postgres /var/lib/... /var/log/..."
  const [version, name, port] = run(["pg_lsclusters", "-h"]).stdout.toString().split(/\s+/);
  if (!version || !name || !port) return "no PostgreSQL cluster (pg_createcluster one)";
  run(["pg_ctlcluster", version, name, "start"]);
  const isReady = () => run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", port]).exitCode === 0;
  if (!(await waitFor(isReady, 30_000))) return `PostgreSQL ${version}/${name} did not start`;
  if (!asPostgres("SELECT 1 FROM pg_roles WHERE rolname='platform'").stdout.toString().trim()) {
    asPostgres("CREATE ROLE platform LOGIN SUPERUSER PASSWORD 'platform'");
  }
  if (!asPostgres("SELECT 1 FROM pg_database WHERE datname='platform'").stdout.toString().trim()) {
    asPostgres("CREATE DATABASE platform OWNER platform");
  }
  return { url: `postgres://platform:platform@127.0.0.1:${port}/platform` };
}

export async function testBackends(given: Backends["env"]): Promise<Backends> {
  const env: Backends["env"] = { ...given };
  const skipped: string[] = [];
  const stops: (() => void)[] = [];
  if (!env.TEST_REDIS_URL) {
    const redis = await startRedis();
    if (typeof redis === "string") skipped.push(redis);
    else {
      env.TEST_REDIS_URL = redis.url;
      stops.push(redis.stop);
    }
  }
  if (!env.TEST_DATABASE_URL) {
    const postgres = await startPostgres();
    if (typeof postgres === "string") skipped.push(postgres);
    else env.TEST_DATABASE_URL = postgres.url;
  }
  return {
    env,
    skipped,
    stop() {
      for (const stop of stops) stop();
    },
  };
}
