/**
 * The real gateway and the real apps the site talks to, each started as `bun src/index.ts` in
 * its own folder (as the Dockerfile and `bun run start` do), on free loopback ports.
 */
import { join } from "node:path";
import { freePorts, waitForHttp } from "@platform/server/testing";

const APPS_DIR = join(import.meta.dir, "..", "..", "..");

type AppName = "leaderboard" | "runner" | "bench" | "admissions";

export type StackOptions = {
  /** Environment per app on top of the ports, e.g. a low rate limit to reach a 429 quickly. */
  env?: Partial<Record<AppName | "web", Record<string, string>>>;
  /** The APIs to start besides the gateway and the site (default: the site's three). */
  apps?: AppName[];
  /**
   * Run before the apps start, knowing the gateway's address (the portal's tests make an admin
   * there and point the emails' links at it); answers more environment per app.
   */
  before?: (base: string) => Promise<StackOptions["env"]> | StackOptions["env"];
};

export type Stack = { base: string; stop: () => Promise<void> };

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const wanted = opts.apps ?? ["leaderboard", "runner", "bench"];
  const [gateway, leaderboard, runner, bench, web, admissions, nothing] = await freePorts(7);
  const port = (app: AppName, own: number | undefined) => (wanted.includes(app) ? own : nothing);
  const ports = {
    GATEWAY_PORT: gateway,
    LEADERBOARD_PORT: port("leaderboard", leaderboard),
    RUNNER_PORT: port("runner", runner),
    BENCH_PORT: port("bench", bench),
    WEB_PORT: web,
    ADMISSIONS_PORT: port("admissions", admissions),
  };
  // Memory stores, whatever the surrounding run uses: a shared Redis would carry scores and
  // rate-limit counts from one run into the next, and these tests count both from zero.
  const { REDIS_URL: _redis, DATABASE_URL: _database, ...inherited } = process.env;
  const common = {
    ...inherited,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    // The gateway probes admissions too; unless asked for, nothing listens there.
    ADMISSIONS_URL: `http://127.0.0.1:${ports.ADMISSIONS_PORT}`,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    NODE_ENV: "test",
  };
  const extra = (await opts.before?.(`http://127.0.0.1:${gateway}`)) ?? {};
  const apps = [...wanted, "web", "gateway"] as const;
  const children = apps.map((app) =>
    Bun.spawn(["bun", "src/index.ts"], {
      cwd: join(APPS_DIR, app),
      env: { ...common, ...(app === "gateway" ? {} : { ...opts.env?.[app], ...extra[app] }) },
      stdout: "inherit",
      stderr: "inherit",
    }),
  );
  const stop = async () => {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((child) => child.exited));
  };
  try {
    const base = `http://127.0.0.1:${gateway}`;
    await waitForHttp(`${base}/gateway/live`, 30_000);
    // Each app is up once it answers its own liveness probe (the runner's readiness also needs
    // bubblewrap, which the tests that need it check for themselves).
    for (const app of [...wanted, "web"] as const) {
      const own = app === "web" ? web : ports[`${app.toUpperCase() as Uppercase<AppName>}_PORT`];
      await waitUntilOk(`http://127.0.0.1:${own}/health/live`, 60_000);
    }
    return { base, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilOk(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}
