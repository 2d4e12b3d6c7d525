#!/usr/bin/env bun
/**
 * docker-compose.yml built and run for real, with podman: base images built locally
 * (infra/images/build.ts), every app image built from the repository's Dockerfile, the stack up
 * until every service is healthy, the smoke in stack.test.ts through the published gateway port,
 * then `down -v`; the tests' JUnit report goes to reports/root.compose.xml. `bun run check` runs it
 * (its `compose` task), CI on the host; alone: `bun infra/compose/run.ts`.
 *
 * The driver is docker-compose 1.29 (Debian's) on podman's Docker-compatible API socket; podman
 * 4.3 has no `podman compose`, and podman-compose 1.0.3 fails on this file. Three differences
 * from Docker are bridged here, without editing the file (a copy is handed to compose):
 * - compose 1.29 does not know the top-level `name:`; the project name is given with `-p`.
 * - compose sends a seccomp profile's content, podman's API wants a path: the runner's
 *   `seccomp=<file>` option is removed from the copy and the same file is given to podman as the
 *   default profile (containers.conf) of this run: every container of the run gets it, not only
 *   the runner (docs/containers.md says so too).
 * - without systemd podman runs no healthchecks by itself: this script runs them, at Docker's
 *   cadence, so `depends_on: service_healthy` works.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must, sh } from "../../scripts/process.ts";
import { REPORTS, reportName } from "../../scripts/reports.ts";
import { buildBaseImages } from "../images/build.ts";
import { podmanEnv } from "../podman.ts";
import { type Diagnosis, diagnose } from "./diagnose.ts";

const root = join(import.meta.dir, "../..");
const PROJECT = "platformcheck";
const GATEWAY = "http://127.0.0.1:3000";
/** Every service the compose file declares must end up healthy. */
const SERVICES = Object.keys(
  (
    Bun.YAML.parse(readFileSync(join(root, "docker-compose.yml"), "utf8")) as {
      services: Record<string, unknown>;
    }
  ).services,
).length;
const UP_TIMEOUT_MS = 300_000;
/**
 * The stack is healthy within 15–40 s when all is well: past a minute, the first attempt asks
 * every half minute whether podman's network is at fault, rather than waiting out `up` and the
 * health wait (5 minutes each).
 */
const NETWORK_CHECK_AFTER_MS = 60_000;
const NETWORK_CHECK_EVERY_MS = 30_000;

const seccompProfile = join(root, "apps/runner/docker-seccomp.json");
const env = podmanEnv({ seccompProfile });
const say = (line: string) => console.log(`compose: ${line}`);

/** The compose file as compose 1.29 on podman takes it (see above); nothing else changes. */
function composeCopy(dir: string): string {
  const text = readFileSync(join(root, "docker-compose.yml"), "utf8");
  const copy = text
    .replace(/^name: .*\n/m, "")
    .replace(/^\s+- seccomp=\.\/apps\/runner\/docker-seccomp\.json\n/m, "");
  if (copy.includes("seccomp="))
    throw new Error("an unexpected seccomp option in the compose file");
  const file = join(dir, "docker-compose.yml");
  writeFileSync(file, copy);
  return file;
}

/** podman's Docker-compatible API on a socket of our own, for as long as the check runs. */
async function apiService(dir: string) {
  const socket = join(dir, "podman.sock");
  const service = Bun.spawn(["podman", "system", "service", "--time=0", `unix://${socket}`], {
    env,
    stdout: "ignore",
    stderr: "ignore",
  });
  for (let i = 0; i < 100 && !(await Bun.file(socket).exists()); i++) await Bun.sleep(100);
  return { host: `unix://${socket}`, stop: () => service.kill() };
}

type Schedule = { startedAt: number; startPeriodMs: number; intervalMs: number; last: number };

/** A container's healthcheck timing, as its compose service declares it (ns in inspect). */
async function scheduleOf(id: string): Promise<Schedule> {
  type Inspected = {
    State: { StartedAt: string };
    Config: { Healthcheck?: { Interval?: number; StartPeriod?: number } };
  };
  const [info] = JSON.parse((await sh(["podman", "inspect", id], { env })).stdout || "[]") as
    | Inspected[]
    | [];
  const ms = (ns: number | undefined, fallback: number) => (ns ? ns / 1e6 : fallback);
  return {
    startedAt: Date.parse(info?.State.StartedAt ?? "") || Date.now(),
    // Docker's defaults: checks every 30 s, no start period.
    startPeriodMs: ms(info?.Config.Healthcheck?.StartPeriod, 0),
    intervalMs: ms(info?.Config.Healthcheck?.Interval, 30_000),
    last: 0,
  };
}

/**
 * Runs each container's healthcheck as Docker would (what systemd timers do elsewhere): every
 * 2 s during its start period, so the stack comes up quickly (Docker's `start_interval`), then
 * at its `interval`. The cadence matters: `retries` failures in a row mark a container
 * unhealthy, so checking every 2 s after the start period would give a service 10 s to get
 * over a passing failure where the compose file grants it 50.
 */
function healthLoop() {
  let running = true;
  const schedules = new Map<string, Schedule>();
  const loop = (async () => {
    while (running) {
      const ids = (
        await sh(
          ["podman", "ps", "-q", "--filter", `label=com.docker.compose.project=${PROJECT}`],
          { env },
        )
      ).stdout
        .split("\n")
        .filter(Boolean);
      await Promise.all(
        ids.map(async (id) => {
          let schedule = schedules.get(id);
          if (!schedule) {
            schedule = await scheduleOf(id);
            schedules.set(id, schedule);
          }
          const now = Date.now();
          const starting = now < schedule.startedAt + schedule.startPeriodMs;
          if (!starting && now - schedule.last < schedule.intervalMs) return;
          schedule.last = now;
          await sh(["podman", "healthcheck", "run", id], { env });
        }),
      );
      await Bun.sleep(2000);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** The first attempt stopped early: podman's network is at fault, and this says how. */
class NetworkAtFault extends Error {
  constructor(
    message: string,
    readonly diagnosis: Diagnosis,
  ) {
    super(message);
  }
}

/** Until every container of the project reports healthy (its healthcheck run by the loop). */
async function allHealthy(deadline: number, stop: AbortSignal) {
  let states = "";
  while (Date.now() < deadline && !stop.aborted) {
    states = (
      await must(
        [
          "podman",
          "ps",
          "-a",
          "--filter",
          `label=com.docker.compose.project=${PROJECT}`,
          "--format",
          "{{.Names}} {{.Status}}",
        ],
        { env },
      )
    ).trim();
    const rows = states.split("\n");
    if (rows.length === SERVICES && rows.every((row) => row.includes("(healthy)"))) return;
    await Bun.sleep(1000);
  }
  throw new Error(`not every service became healthy:\n${states}`);
}

/**
 * Past a minute, and every half minute after, whether podman's network is at fault: if so, the
 * attempt ends there (NetworkAtFault) instead of waiting out `up` and the health wait, up to
 * 5 minutes each. Returns, without a verdict, once `stop` aborts.
 */
async function watchNetwork(stop: AbortSignal) {
  const started = Date.now();
  let next = started + NETWORK_CHECK_AFTER_MS;
  while (!stop.aborted) {
    if (Date.now() >= next) {
      const diagnosis = await diagnose(PROJECT, env);
      if (stop.aborted) return;
      if (diagnosis.networkTrouble) {
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        throw new NetworkAtFault(`not healthy after ${seconds} s`, diagnosis);
      }
      next = Date.now() + NETWORK_CHECK_EVERY_MS;
    }
    await Bun.sleep(1000);
  }
}

async function imageSizes(): Promise<string> {
  const rows = await must(["podman", "images", "--format", "{{.Repository}}:{{.Tag}}\t{{.Size}}"], {
    env,
  });
  return rows
    .split("\n")
    .filter((row) => row.includes(PROJECT) || /bun|postgres|redis|debian/.test(row))
    .join("\n");
}

const dir = mkdtempSync(join(tmpdir(), "platform-compose-"));
const api = await apiService(dir);
const composeEnv = {
  ...env,
  DOCKER_HOST: api.host,
  ADMISSIONS_JWT_SECRET: crypto.getRandomValues(new Uint8Array(32)).toHex(),
};
const compose = (args: string[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  sh(
    ["docker-compose", "-p", PROJECT, "-f", composeCopy(dir), "--project-directory", root, ...args],
    { env: composeEnv, echo: true, ...opts },
  );
/**
 * `up`, then every service healthy (`up` waits only for what others depend on). With
 * `watchingNetwork`, a network found at fault ends the attempt early; `up` is then killed, so
 * the `down` that follows never runs beside it.
 */
async function bringUp(watchingNetwork: boolean) {
  const upStarted = performance.now();
  const stop = new AbortController();
  const attempt = (async () => {
    const up = await compose(["up", "-d"], { timeoutMs: UP_TIMEOUT_MS, signal: stop.signal });
    if (up.code !== 0) throw new Error(`docker-compose up failed (${up.code})`);
    await allHealthy(Date.now() + UP_TIMEOUT_MS, stop.signal);
  })();
  try {
    await Promise.race([attempt, ...(watchingNetwork ? [watchNetwork(stop.signal)] : [])]);
  } finally {
    stop.abort();
    await attempt.catch(() => {}); // settled: `up` and the health wait have ended
  }
  say(`every service healthy after ${((performance.now() - upStarted) / 1000).toFixed(0)} s`);
}

let code = 1;
const stopHealth = healthLoop();
try {
  const started = performance.now();
  await buildBaseImages();
  const built = await compose(["build", "--quiet"]);
  if (built.code !== 0) throw new Error("docker-compose build failed");
  say(
    `images built in ${((performance.now() - started) / 1000).toFixed(0)} s:\n${await imageSizes()}`,
  );
  try {
    await bringUp(true);
  } catch (error) {
    // Once, and only when podman's own network was at fault: its DNS server (aardvark-dns 1.4,
    // Debian 12) drops queries while it reloads for each container that starts, and once on a
    // fresh CI machine left every app unable to resolve Redis for as long as the check waited.
    // An app that fails on a working network is a failure, never retried.
    const diagnosis =
      error instanceof NetworkAtFault ? error.diagnosis : await diagnose(PROJECT, env);
    if (!diagnosis.networkTrouble) throw error; // printed with the logs below
    console.error(diagnosis.text);
    say(`${(error as Error).message}, and podman's network was at fault (above): once more`);
    await compose(["down", "-v", "--remove-orphans"]);
    await bringUp(false);
  }
  // Its JUnit report is what the check (and CI, which runs this on the host) counts.
  const report = `--reporter-outfile=${join(REPORTS, reportName("//#compose"))}`;
  const tests = await sh(["bun", "test", "stack.test.ts", "--reporter=junit", report], {
    cwd: import.meta.dir,
    env: { ...process.env, COMPOSE_GATEWAY_URL: GATEWAY, COMPOSE_PROJECT: PROJECT, ...env },
    echo: true,
  });
  code = tests.code;
} catch (error) {
  console.error(`compose: ${(error as Error).message}`);
  await compose(["ps"]);
  await compose(["logs", "--tail=40"]);
  console.error((await diagnose(PROJECT, env)).text);
} finally {
  await stopHealth();
  await compose(["down", "-v", "--remove-orphans"]);
  api.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
