/**
 * End-to-end smoke: starts everything exactly as the README's `bun run start` does, on free
 * ports, and drives it through the real gateway. Run by `bun run check` (SMOKE=1); with
 * DATABASE_URL and REDIS_URL in the environment it runs on PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freeStackPorts, waitForHttp } from "../packages/server/test/support/ports.ts";

const root = join(import.meta.dir, "..");
const present = (app: string) => existsSync(join(root, "apps", app, "package.json"));
const enabled = process.env.SMOKE === "1";
/** bubblewrap is there: the runner can run programs (else it answers 503 naming the fix). */
const sandboxable = Bun.which("bwrap") !== null;

const ports = await freeStackPorts();
const base = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
let stack: ReturnType<typeof Bun.spawn> | undefined;

beforeAll(async () => {
  if (!enabled) return;
  stack = Bun.spawn(["bun", "run", "start"], {
    cwd: root,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([key, port]) => [key, String(port)])),
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  await waitForHttp(`${base}/gateway/live`, 60_000);
  // Every app that exists is up once the gateway's aggregate health says so.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const health = (await (await fetch(`${base}/gateway/health`)).json()) as {
      upstreams?: Record<string, { status: string }>;
    };
    // Without bubblewrap the runner is up but not ready (it runs no program): not waited for.
    const expected = ["admissions", "leaderboard", "runner", "bench", "web"]
      .filter(present)
      .filter((app) => app !== "runner" || sandboxable);
    if (expected.every((app) => health.upstreams?.[app]?.status === "up")) return;
    await Bun.sleep(250);
  }
  throw new Error("the stack did not become healthy within 90 s");
}, 180_000);

afterAll(async () => {
  if (!stack) return;
  stack.kill("SIGTERM");
  await stack.exited;
});

describe.skipIf(!enabled)("smoke through the gateway", () => {
  test("leaderboard: a score goes in and comes back out", async () => {
    const posted = await fetch(`${base}/api/leaderboard`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ playerName: "smoke", score: 31337 }),
    });
    expect(posted.status).toBe(201);
    const board = (await (await fetch(`${base}/api/leaderboard`)).json()) as {
      playerName: string;
    }[];
    expect(board[0]?.playerName).toBe("smoke");
  });

  test.skipIf(!present("web"))("web: the site is served at / through the gateway", async () => {
    const res = await fetch(`${base}/`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain('href="/playground/"');
    // An unknown API path is still the gateway's problem+json, not a page.
    const api = await fetch(`${base}/api/nope`, { headers: { accept: "text/html" } });
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toStartWith("application/problem+json");
  });

  test("one OpenAPI document for the site, and its reference page, served offline", async () => {
    const res = await fetch(`${base}/api/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { paths: Record<string, unknown>; servers: unknown };
    const paths = Object.keys(document.paths);
    for (const path of ["/api/v1/auth/login/", "/api/leaderboard", "/api/run", "/api/benchmark"]) {
      expect(paths).toContain(path);
    }
    expect(document.servers).toEqual([{ url: base }]);
    const page = await (await fetch(`${base}/api/docs/`)).text();
    expect(page).not.toMatch(/https?:\/\//);
    for (const [, asset] of page.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect((await fetch(`${base}${asset}`)).status).toBe(200);
    }
  });

  test("admissions' own document, through the gateway, names the gateway as its server", async () => {
    // A client that is not a trusted proxy cannot choose the address the document names.
    const res = await fetch(`${base}/api/v1/schema/`, {
      headers: { "x-forwarded-host": "evil.example.net", "x-forwarded-proto": "https" },
    });
    expect(res.status).toBe(200);
    const document = (await res.json()) as { servers: unknown };
    expect(document.servers).toEqual([{ url: base }]);
  });

  test("every response carries a request id; errors are problem+json", async () => {
    const res = await fetch(`${base}/no/such/path`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("content-type")).toStartWith("application/problem+json");
  });

  // Without bubblewrap the runner runs no program and says why: that answer is checked instead.
  test.skipIf(!present("runner"))("runner: a program runs and its output comes back", async () => {
    const res = await fetch(`${base}/api/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "const n: number = 6 * 7; console.log(n);" }),
    });
    if (!sandboxable) {
      expect(res.status).toBe(503);
      const problem = (await res.json()) as { code: string; detail: string };
      expect(problem.code).toBe("SANDBOX_UNAVAILABLE");
      expect(problem.detail).toContain("apt-get install bubblewrap");
      return;
    }
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ output: "42\n", error: null, timedOut: false });
  });

  test.skipIf(!present("bench"))("bench: a benchmark runs with the spec's fields", async () => {
    const res = await fetch(`${base}/api/benchmark`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "json" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: "json", iterations: 10_000 });
    expect(res.headers.get("ratelimit-policy")).toBeTruthy();
  });

  test.skipIf(!present("admissions"))(
    "admissions: probes and the public catalog answer",
    async () => {
      for (const path of [
        "/health/live/",
        "/health/ready/",
        "/health/redis/",
        "/api/v1/catalog/programs/",
      ]) {
        expect((await fetch(base + path)).status).toBe(200);
      }
      expect((await fetch(`${base}/api/v1/applications/`)).status).toBe(401);
    },
  );

  test("SIGTERM stops the whole stack and frees every port", async () => {
    stack?.kill("SIGTERM");
    await stack?.exited;
    stack = undefined;
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    }
  }, 30_000);
});
