/**
 * The compose file and the Dockerfile checked statically, fast and on machines without podman:
 * they parse, every build names an app that exists and starts as the app starts itself, the
 * configuration compose passes is accepted by each app's own env validation, and each image's
 * install stage (turbo prune + frozen install) works. compose/run.ts builds and runs it for real.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const APPS = ["gateway", "admissions", "leaderboard", "runner", "bench", "web"] as const;
const PORTS: Record<(typeof APPS)[number], number> = {
  gateway: 3000,
  admissions: 3001,
  leaderboard: 3002,
  runner: 3003,
  bench: 3004,
  web: 3005,
};

type Service = {
  build?: { context: string; args?: Record<string, string> };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
};
const compose = Bun.YAML.parse(await Bun.file(join(root, "docker-compose.yml")).text()) as {
  services: Record<
    string,
    Service & { networks?: string[] | Record<string, { ipv4_address?: string }> }
  >;
  networks: Record<string, { ipam?: { config?: { subnet: string; ip_range?: string }[] } }>;
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
      "web",
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

/** An IPv4 CIDR block's first and last address, as numbers. */
function block(cidr: string): { first: number; last: number } {
  const [address = "", bits = "32"] = cidr.split("/");
  const value = address.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits));
  const first = value - (value % size);
  return { first, last: first + size - 1 };
}
const addressOf = (ip: string) => block(ip).first;

describe("the compose network", () => {
  const config = compose.networks.platform?.ipam?.config?.[0];
  const subnet = block(config?.subnet ?? "");
  const range = block(config?.ip_range ?? "");

  // podman 4.3 hands out every address of ip_range, the subnet's broadcast address included: a
  // container given 172.30.0.255 could be reached by no other (ECONNREFUSED), and a CI run lost
  // five minutes before the stack came up on the second attempt (docs/containers.md).
  test("hands out neither the subnet's network nor its broadcast address", () => {
    expect(config?.ip_range).toBeDefined();
    expect(range.first).toBeGreaterThan(subnet.first);
    expect(range.last).toBeLessThan(subnet.last);
  });

  test("gives fixed addresses from the subnet, outside the range handed out", () => {
    const fixed = Object.entries(compose.services).flatMap(([name, svc]) => {
      const networks = Array.isArray(svc.networks) ? {} : (svc.networks ?? {});
      const ip = networks.platform?.ipv4_address;
      return ip ? [[name, addressOf(ip)] as const] : [];
    });
    expect(fixed.map(([name]) => name)).toEqual(["gateway"]);
    for (const [name, ip] of fixed) {
      expect(ip > subnet.first && ip < subnet.last, `${name} in the subnet`).toBe(true);
      expect(ip >= range.first && ip <= range.last, `${name} outside the range`).toBe(false);
    }
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

describe("the one Dockerfile", () => {
  test("builds any app named by APP: prunes it, installs frozen, runs as non-root", async () => {
    const text = await Bun.file(join(root, "Dockerfile")).text();
    // A Dockerfile build-arg reference, `${NAME}`, spelled so it is not a template placeholder.
    const arg = (name: string) => ["$", "{", name, "}"].join("");
    expect(text).toContain(`turbo@2.11.11 prune "@platform/${arg("APP")}" --docker`);
    expect(text).toContain("bun install --frozen-lockfile --production");
    expect(text).toMatch(/^USER (?!root)\w+/m);
    expect(text).toContain(`WORKDIR /repo/apps/${arg("APP")}`);
    // The start script's command itself, so the app is pid 1 (signals, reaping).
    expect(text).toContain('CMD ["bun", "src/index.ts"]');
  });

  test("the runner's image gets bubblewrap from its package.json", async () => {
    const pkg = await Bun.file(join(root, "apps/runner/package.json")).json();
    expect(pkg.systemPackages).toEqual(["bubblewrap"]);
  });
});

describe.each(APPS)("%s image", (app) => {
  const svc = service(app) as Service & { build?: { args?: Record<string, string> } };
  const appDir = join(root, "apps", app);

  test("compose builds it from the root Dockerfile with APP set, and runs the image's command", async () => {
    expect(svc.build?.context).toBe(".");
    expect(svc.build?.args?.APP).toBe(app);
    expect(svc.command).toBeUndefined();
    const pkg = await Bun.file(join(appDir, "package.json")).json();
    expect(pkg.name).toBe(`@platform/${app}`);
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
        ["bun", "x", "turbo", "prune", pkg.name, "--docker", `--out-dir=${out}`],
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
