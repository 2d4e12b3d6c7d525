/**
 * The compose stack's smoke, through the gateway port it publishes on the host. Only run by
 * infra/compose/run.ts, which brings the stack up first and sets COMPOSE_GATEWAY_URL; without it
 * this file defines no tests (the static compose checks are in ../compose.test.ts).
 */
import { describe, expect, test } from "bun:test";

const base = process.env.COMPOSE_GATEWAY_URL;
const project = process.env.COMPOSE_PROJECT ?? "";

/** Runs a command in the running container of a compose service and returns its output. */
async function inService(service: string, cmd: string[]): Promise<string> {
  const ids = Bun.spawnSync([
    "podman",
    "ps",
    "-q",
    "--filter",
    `label=com.docker.compose.project=${project}`,
    "--filter",
    `label=com.docker.compose.service=${service}`,
  ]);
  const id = ids.stdout.toString().trim().split("\n")[0] ?? "";
  expect(id, `a running ${service} container`).not.toBe("");
  const ran = Bun.spawnSync(["podman", "exec", id, ...cmd], { stderr: "pipe" });
  expect(ran.exitCode, ran.stderr.toString()).toBe(0);
  return ran.stdout.toString();
}

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

if (base) {
  describe("the compose stack, through the published gateway port", () => {
    test("every upstream is up in the gateway's health view", async () => {
      const health = (await (await fetch(`${base}/gateway/health`)).json()) as {
        upstreams: Record<string, { status: string }>;
      };
      for (const app of ["admissions", "leaderboard", "runner", "bench"]) {
        expect(health.upstreams[app]?.status, app).toBe("up");
      }
    });

    test("the site: its home page and a page with its script, through the gateway", async () => {
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get("content-type")).toStartWith("text/html");
      const html = await home.text();
      for (const page of ["/game/", "/playground/", "/bench/", "/portal/"])
        expect(html).toContain(page);
      const game = await (await fetch(`${base}/game/`)).text();
      const script = /<script[^>]+src="([^"]+)"/.exec(game)?.[1];
      expect(script).toBeString();
      const asset = await fetch(new URL(script ?? "", base));
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toContain("javascript");
    });

    test("metrics: on each app's own port inside the network, never through the gateway", async () => {
      for (const [service, port] of [
        ["gateway", 9300],
        ["runner", 9303],
      ] as const) {
        const text = await inService(service, [
          "bun",
          "-e",
          `console.log(await (await fetch('http://127.0.0.1:${port}/metrics')).text())`,
        ]);
        expect(text).toContain("http_requests_total");
      }
      const published = await fetch(`${base}/metrics`);
      expect(published.status).toBe(404);
      expect(await published.text()).not.toContain("http_requests_total");
    });

    test("leaderboard: POST a score, GET it back ranked", async () => {
      const posted = await fetch(
        `${base}/api/leaderboard`,
        json({ playerName: "compose", score: 4242 }),
      );
      expect(posted.status).toBe(201);
      const board = (await (await fetch(`${base}/api/leaderboard`)).json()) as {
        playerName: string;
        score: number;
      }[];
      expect(board).toContainEqual(expect.objectContaining({ playerName: "compose", score: 4242 }));
    });

    test("runner: a program runs with all five sandbox layers on, in an unprivileged container", async () => {
      const res = await fetch(
        `${base}/api/run`,
        json({ code: "const n: number = 6 * 7; console.log(n);" }),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ output: "42\n", error: null, timedOut: false });

      const ready = JSON.parse(
        await inService("runner", [
          "bun",
          "-e",
          "console.log(await (await fetch('http://127.0.0.1:3003/health/ready')).text())",
        ]),
      ) as { layers: Record<string, { on: boolean }> };
      expect(Object.keys(ready.layers).sort()).toEqual([
        "lockdown",
        "namespaces",
        "rlimits",
        "seccomp",
        "static",
      ]);
      for (const [layer, state] of Object.entries(ready.layers)) expect(state.on, layer).toBe(true);

      // The app runs as the image's `bun` user with no capabilities, in a container that is
      // not privileged.
      const status = await inService("runner", ["cat", "/proc/self/status"]);
      expect(status).toMatch(/^Uid:\s+1000\s/m);
      expect(status).toMatch(/^CapEff:\s+0+$/m);
      const id = (await inService("runner", ["cat", "/etc/hostname"])).trim();
      const inspect = Bun.spawnSync([
        "podman",
        "inspect",
        "--format",
        "{{.HostConfig.Privileged}}",
        id,
      ]);
      expect(inspect.stdout.toString().trim()).toBe("false");
    });

    test("runner: after runs, nothing is left a zombie in its container", async () => {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${base}/api/run`, json({ code: `console.log(${i})` }));
        expect(res.status).toBe(200);
      }
      await Bun.sleep(500);
      // Field 3 of /proc/<pid>/stat is the state; Z is a zombie nobody reaped.
      const stats = await inService("runner", ["sh", "-c", "cat /proc/[0-9]*/stat"]);
      const states = stats
        .split("\n")
        .filter(Boolean)
        .map((line) => line.slice(line.lastIndexOf(")") + 2, line.lastIndexOf(")") + 3));
      expect(states.length).toBeGreaterThan(1);
      expect(states.filter((state) => state === "Z")).toEqual([]);
    });

    test("runner: a program the sandbox blocks answers with the blocked capability", async () => {
      const res = await fetch(
        `${base}/api/run`,
        json({ code: "await fetch('http://example.com');" }),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { error: string | null };
      expect(body.error).toStartWith("SecurityError");
    });

    test("bench: a benchmark runs and says its rate limit", async () => {
      const res = await fetch(`${base}/api/benchmark`, json({ type: "json" }));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ type: "json", iterations: 10_000 });
      expect(res.headers.get("ratelimit-policy")).toBeTruthy();
    });

    test("every app runs as bun, which cannot change the app's code; only data/ is its own", async () => {
      for (const service of ["gateway", "admissions", "leaderboard", "runner", "bench", "web"]) {
        const out = await inService(service, [
          "sh",
          "-c",
          "id -un; for f in src src/index.ts node_modules data; do test -w $f && echo $f writable || echo $f read-only; done",
        ]);
        expect(out.trim().split("\n"), service).toEqual([
          "bun",
          "src read-only",
          "src/index.ts read-only",
          "node_modules read-only",
          "data writable",
        ]);
      }
    });

    test("admissions: probes on PostgreSQL + Redis, the catalog, and a login", async () => {
      for (const path of [
        "/health/live/",
        "/health/ready/",
        "/health/redis/",
        "/api/v1/catalog/programs/",
      ]) {
        expect((await fetch(base + path)).status, path).toBe(200);
      }
      const email = `compose-${Date.now()}@example.com`;
      const password = "correct horse battery staple";
      const registered = await fetch(
        `${base}/api/v1/auth/register/`,
        json({ email, password, fullName: "Compose Check" }),
      );
      expect(registered.status, await registered.clone().text()).toBe(202);
      const login = await fetch(`${base}/api/v1/auth/login/`, json({ email, password }));
      expect(login.status, await login.clone().text()).toBe(200);
      const { accessToken } = (await login.json()) as { accessToken: string };
      const me = await fetch(`${base}/api/v1/applications/`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(me.status).toBe(200);
    });
  });
}
