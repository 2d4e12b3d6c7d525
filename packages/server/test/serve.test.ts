import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort, waitForHttp } from "./support/index.ts";

async function startFixture(env: Record<string, string> = {}, port?: number) {
  port ??= await freePort();
  const proc = Bun.spawn(["bun", join(import.meta.dir, "fixtures/slow-server.ts")], {
    env: { ...process.env, PORT: String(port), ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/fast`);
  return { proc, base, port };
}

describe("the pipelining listener (HTTP_PIPELINING) stops as Bun.serve does", () => {
  const pipelining = { HTTP_PIPELINING: "true" };

  test("SIGTERM: the in-flight request finishes, new ones are refused, exit 0", async () => {
    const { proc, base } = await startFixture(pipelining);
    const inFlight = fetch(`${base}/slow`);
    await Bun.sleep(100);
    proc.kill("SIGTERM");
    await Bun.sleep(100);
    await expect(fetch(`${base}/fast`, { keepalive: false })).rejects.toThrow();
    const response = await inFlight;
    expect(await response.json()).toEqual({ done: true });
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toContain('"pipelining":true');
  });
});

describe("graceful shutdown", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal}: in-flight requests finish, new ones are refused, exit 0`, async () => {
      const { proc, base } = await startFixture();
      const inFlight = fetch(`${base}/slow`);
      await Bun.sleep(100);
      proc.kill(signal);
      await Bun.sleep(100);
      await expect(fetch(`${base}/fast`, { keepalive: false })).rejects.toThrow();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ done: true });
      expect(await proc.exited).toBe(0);
      const log = await new Response(proc.stdout).text();
      expect(log).toContain('"msg":"shutting down"');
      expect(log).toContain('"msg":"closing resources"');
      expect(log).toContain('"msg":"stopped"');
    });
  }

  test("SIGTERM with a drain: readiness turns 503 while requests are still served, then it stops", async () => {
    const { proc, base } = await startFixture({ SHUTDOWN_DRAIN_MS: "600" });
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    proc.kill("SIGTERM");
    await Bun.sleep(150);
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get("content-type")).toStartWith("application/problem+json");
    expect((await fetch(`${base}/fast`)).status).toBe(200);
    expect(await proc.exited).toBe(0);
    await expect(fetch(`${base}/fast`, { keepalive: false })).rejects.toThrow();
    expect(await new Response(proc.stdout).text()).toContain('"msg":"draining"');
  });

  test("SIGINT (Ctrl-C) never drains: the listener closes at once", async () => {
    const { proc, base } = await startFixture({ SHUTDOWN_DRAIN_MS: "5000" });
    proc.kill("SIGINT");
    await Bun.sleep(150);
    await expect(fetch(`${base}/fast`, { keepalive: false })).rejects.toThrow();
    expect(await proc.exited).toBe(0);
  });

  test("past the shutdown timeout the stragglers are cut and the exit code is 1", async () => {
    const { proc, base } = await startFixture({ SLOW_MS: "5000", SHUTDOWN_TIMEOUT_MS: "200" });
    const inFlight = fetch(`${base}/slow`).catch(() => "cut");
    await Bun.sleep(100);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(1);
    expect(await inFlight).toBe("cut");
  });

  test.each([
    ["Bun.serve", { HTTP_PIPELINING: "false" }],
    ["the pipelining listener", { HTTP_PIPELINING: "true" }],
  ])(
    "a second instance on a port already in use fails to start, naming what holds it (%s)",
    async (_, listener) => {
      const first = await startFixture(listener);
      try {
        const second = Bun.spawn(["bun", join(import.meta.dir, "fixtures/slow-server.ts")], {
          env: { ...process.env, PORT: String(first.port), ...listener },
          stdout: "ignore",
          stderr: "pipe",
        });
        expect(await second.exited).not.toBe(0);
        // Not Bun's "Is port … in use?", which it says whatever failed: the holder, found.
        expect(await new Response(second.stderr).text()).toContain(
          `cannot listen on 127.0.0.1:${first.port}: the port is held by pid ${first.proc.pid} (`,
        );
      } finally {
        first.proc.kill("SIGTERM");
      }
      expect(await first.proc.exited).toBe(0);
    },
  );
});
