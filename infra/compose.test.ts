/**
 * No Docker engine runs here, so the compose file and Dockerfiles are checked statically: they
 * parse, every build context and command exists and matches how the app starts itself, the
 * configuration they pass is accepted by each app's own env validation, and the install stage of
 * each image (turbo prune + frozen install) really works.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const APPS = ["gateway", "admissions", "leaderboard", "runner", "bench"] as const;
const PORTS: Record<(typeof APPS)[number], number> = {
  gateway: 3000,
  admissions: 3001,
  leaderboard: 3002,
  runner: 3003,
  bench: 3004,
};

type Service = {
  build?: { context: string; dockerfile: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
};
const compose = Bun.YAML.parse(await Bun.file(join(root, "docker-compose.yml")).text()) as {
  services: Record<string, Service>;
};
const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** `${VAR:?message}` and `${VAR:-default}` as compose would resolve them for this check. */
const resolve = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(env).map(([key, value]) => [
      key,
      String(value).replace(
        /\$\{(\w+)(?::[-?]([^}]*))?\}/g,
        (_, name: string, rest: string | undefined) =>
          name.endsWith("SECRET") ? "x".repeat(64) : (rest ?? ""),
      ),
    ]),
  );

describe("docker-compose.yml", () => {
  test("has the gateway, the four apps, PostgreSQL and Redis", () => {
    expect(Object.keys(compose.services).sort()).toEqual([...APPS, "postgres", "redis"].sort());
  });

  test("every service has a healthcheck, and every dependency waits for health", () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      expect(svc.healthcheck?.test.length, `${name} healthcheck`).toBeGreaterThan(0);
      for (const [dependency, how] of Object.entries(svc.depends_on ?? {})) {
        expect(compose.services[dependency], `${name} → ${dependency}`).toBeDefined();
        expect(how.condition).toBe("service_healthy");
      }
    }
    expect(Object.keys(service("gateway").depends_on ?? {}).sort()).toEqual([
      "admissions",
      "bench",
      "leaderboard",
      "runner",
    ]);
    expect(Object.keys(service("admissions").depends_on ?? {}).sort()).toEqual([
      "postgres",
      "redis",
    ]);
  });

  test("the gateway reaches each app by service name on the app's port", () => {
    const env = service("gateway").environment ?? {};
    for (const app of APPS.filter((a) => a !== "gateway")) {
      expect(env[`${app.toUpperCase()}_URL`]).toBe(`http://${app}:${PORTS[app]}`);
    }
    expect(service("gateway").ports).toEqual(["3000:3000"]);
  });
});

describe("runner sandbox in a container", () => {
  test("runs unprivileged with a seccomp profile that exists and parses", async () => {
    const runner = compose.services.runner as Service & {
      privileged?: boolean;
      security_opt?: string[];
    };
    expect(runner.privileged).toBeUndefined();
    const seccomp =
      runner.security_opt?.find((opt) => opt.startsWith("seccomp="))?.slice("seccomp=".length) ??
      "";
    const profile = await Bun.file(join(root, seccomp)).json();
    expect(profile.defaultAction).toBeString();
    expect(profile.syscalls.length).toBeGreaterThan(0);
  });

  test("an init process reaps orphaned sandbox processes", () => {
    expect((compose.services.runner as Service & { init?: boolean }).init).toBe(true);
  });
});

/**
 * How each container starts: the start script through `bun run`, except the runner, which runs
 * the script's command itself so that it is pid 1 and reaps orphaned sandboxes.
 */
const START: Record<string, string[]> = Object.fromEntries(
  APPS.map((app) => [app, app === "runner" ? ["bun", "src/index.ts"] : ["bun", "run", "start"]]),
);

describe.each(APPS)("%s image", (app) => {
  const svc = service(app);
  const appDir = join(root, "apps", app);

  test("build context and Dockerfile exist; the Dockerfile prunes this app and runs as non-root", async () => {
    expect(svc.build?.context).toBe(".");
    const dockerfile = join(root, svc.build?.dockerfile ?? "missing");
    expect(existsSync(dockerfile)).toBe(true);
    const text = await Bun.file(dockerfile).text();
    const pkg = await Bun.file(join(appDir, "package.json")).json();
    expect(text).toContain(`turbo@2.11.11 prune ${pkg.name} --docker`);
    expect(text).toMatch(/^USER (?!root)\w+/m);
    expect(text).toContain(`WORKDIR /repo/apps/${app}`);
    expect(text).toContain(`EXPOSE ${PORTS[app]}`);
    expect(text).toContain(`CMD ${JSON.stringify(START[app]).replaceAll(",", ", ")}`);
  });

  test("the compose command is the app's own start script, and that script's entry exists", async () => {
    expect(svc.command).toEqual(START[app]);
    const pkg = await Bun.file(join(appDir, "package.json")).json();
    expect(pkg.scripts.start).toBe("bun src/index.ts");
    expect(existsSync(join(appDir, "src/index.ts"))).toBe(true);
  });

  test("the environment compose passes is accepted by the app's own configuration", async () => {
    const { loadEnv } = await import(join(appDir, "src/env.ts"));
    const env = loadEnv(resolve(svc.environment ?? {}));
    expect(env[`${app.toUpperCase()}_PORT`]).toBe(PORTS[app]);
  });

  test("the healthcheck asks this app's own port", () => {
    expect(svc.healthcheck?.test.join(" ")).toContain(`127.0.0.1:${PORTS[app]}/`);
  });

  test("the image's install stage works: turbo prune, then a frozen install", async () => {
    const out = mkdtempSync(join(tmpdir(), `prune-${app}-`));
    try {
      const pkg = await Bun.file(join(appDir, "package.json")).json();
      const prune = Bun.spawnSync(
        ["bunx", "turbo", "prune", pkg.name, "--docker", `--out-dir=${out}`],
        { cwd: root, stderr: "pipe" },
      );
      expect(prune.exitCode, prune.stderr.toString()).toBe(0);
      const install = Bun.spawnSync(
        ["bun", "install", "--frozen-lockfile", "--production", "--ignore-scripts"],
        {
          cwd: join(out, "json"),
          stderr: "pipe",
        },
      );
      expect(install.exitCode, install.stderr.toString()).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
