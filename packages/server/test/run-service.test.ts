/**
 * runService, every app's start-up: a failure before listening is one JSON line on stderr that
 * names each variable at fault, the values it may take, and the cause; exit code 1.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort } from "./support/index.ts";

const FIXTURE = join(import.meta.dir, "fixtures/service.ts");

async function start(env: Record<string, string>) {
  const child = Bun.spawn(["bun", FIXTURE], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return child;
}

async function failure(env: Record<string, string>) {
  const child = await start(env);
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  const lines = stderr.trim().split("\n");
  return { code, lines, line: JSON.parse(lines[0] ?? "{}") as Record<string, unknown> };
}

describe("a start-up failure", () => {
  test("bad configuration: one JSON line, every variable named with its problem and value", async () => {
    const { code, lines, line } = await failure({
      LOG_LEVEL: "loud",
      FIXTURE_PORT: "eighty",
      NODE_ENV: "staging",
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(line).toMatchObject({ level: "error", service: "fixture", msg: "start-up failed" });
    expect(line.variables).toEqual(
      expect.arrayContaining([
        {
          variable: "LOG_LEVEL",
          problem: 'must be one of "debug", "info", "warn", "error", "silent"',
          got: "loud",
        },
        {
          variable: "NODE_ENV",
          problem: 'must be one of "development", "production", "test"',
          got: "staging",
        },
        expect.objectContaining({ variable: "FIXTURE_PORT", got: "eighty" }),
      ]),
    );
    expect(String(line.cause)).toContain("LOG_LEVEL");
  });

  test("a cause found later names its variable and the cause, with no password in it", async () => {
    const { code, lines, line } = await failure({ FAIL_START: "database", FIXTURE_PORT: "3999" });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(line).toMatchObject({
      msg: "start-up failed",
      variables: [{ variable: "DATABASE_URL", problem: "the database did not answer" }],
      cause: "the database did not answer",
    });
    expect(String(line.detail)).toContain("ECONNREFUSED");
    expect(lines[0]).not.toContain("hunter2");
  });
});

test("configured right, it serves and stops on SIGTERM with exit code 0", async () => {
  const port = await freePort();
  const child = await start({ FIXTURE_PORT: String(port), LOG_LEVEL: "silent" });
  let answer = "";
  for (let i = 0; i < 100 && !answer; i++) {
    answer = await fetch(`http://127.0.0.1:${port}/`)
      .then((r) => r.text())
      .catch(async () => {
        await Bun.sleep(50);
        return "";
      });
  }
  expect(answer).toBe("up");
  child.kill("SIGTERM");
  expect(await child.exited).toBe(0);
});
