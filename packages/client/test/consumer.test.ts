/**
 * The client as a project outside this repository gets it: packed to a tarball, installed into a
 * scratch project in the system's temp directory (its own package.json, no workspace, no Elysia),
 * the README's example type-checked there with `tsc` and run against a real stack: the gateway,
 * admissions and the leaderboard started as `bun run start` starts them, on free ports. The
 * example signs in, renews a spoiled access token with the refresh token, pages through the
 * sign-ins and meets an error answer and a refused connection, each as a PlatformError.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
// Not a dependency of the package (that would go into its published manifest): read in place.
import { freeStackPorts, waitForHttp } from "../../server/test/support/ports.ts";

const clientDir = join(import.meta.dir, "..");
const repo = join(clientDir, "../..");
const scratch = mkdtempSync(join(tmpdir(), "platform-client-consumer-"));
const procs: Subprocess[] = [];
const ports = await freeStackPorts();
const base = `http://127.0.0.1:${ports.GATEWAY_PORT}`;

async function run(cmd: string[], cwd: string) {
  const proc = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

/** The README's example, pointed at this stack. */
async function readmeExample(): Promise<string> {
  const readme = await Bun.file(join(clientDir, "README.md")).text();
  const example = readme.split("## Example")[1]?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (!example) throw new Error("README.md has no ```ts example under ## Example");
  return example.replaceAll("http://localhost:3000", base);
}

beforeAll(async () => {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    // A database of its own, gone with the scratch project (not the dev one under apps/).
    ADMISSIONS_SQLITE_FILE: join(scratch, "admissions.sqlite"),
    ...Object.fromEntries(Object.entries(ports).map(([key, port]) => [key, String(port)])),
  };
  for (const app of ["admissions", "leaderboard", "gateway"]) {
    const proc = Bun.spawn(["bun", "run", "start"], {
      cwd: join(repo, "apps", app),
      env,
      stdout: "ignore",
      stderr: "inherit",
    });
    procs.push(proc);
  }
  // Meanwhile: build and pack the client, and make the scratch project that installs it.
  expect((await run(["bun", "run", "build"], clientDir)).code).toBe(0);
  const packed = await run(["bun", "pm", "pack", "--destination", scratch], clientDir);
  expect(packed.code).toBe(0);
  const tarball = (await Array.fromAsync(new Bun.Glob("*.tgz").scan(scratch)))[0];
  if (!tarball) throw new Error(`bun pm pack wrote no tarball:\n${packed.stdout}${packed.stderr}`);
  await Bun.write(
    join(scratch, "package.json"),
    JSON.stringify({
      name: "scratch-consumer",
      private: true,
      type: "module",
      dependencies: { "@platform/client": `file:./${tarball}` },
    }),
  );
  await Bun.write(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        lib: ["ES2022", "DOM"],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      include: ["example.ts"],
    }),
  );
  await Bun.write(join(scratch, "example.ts"), `${await readmeExample()}\nexport {};\n`);
  const installed = await run(["bun", "install"], scratch);
  expect(installed.code, installed.stderr).toBe(0);
  await waitForHttp(`${base}/gateway/live`, 30_000);
  await waitForHttp(`http://127.0.0.1:${ports.ADMISSIONS_PORT}/health/ready/`, 30_000);
  await waitForHttp(`http://127.0.0.1:${ports.LEADERBOARD_PORT}/health/ready`, 30_000);
}, 120_000);

afterAll(async () => {
  for (const proc of procs) proc.kill("SIGTERM");
  await Promise.all(procs.map((proc) => proc.exited));
  rmSync(scratch, { recursive: true, force: true });
});

describe("@platform/client in a project outside the repository", () => {
  test("installs from its tarball with only its own dependency", async () => {
    const lock = await Bun.file(join(scratch, "bun.lock")).text();
    expect(lock).toContain("openapi-fetch");
    expect(lock).not.toContain("elysia");
    expect(
      await Bun.file(join(scratch, "node_modules/@platform/client/dist/index.d.ts")).exists(),
    ).toBe(true);
  });

  test("the README example type-checks there with tsc (strict, no Elysia, no workspace)", async () => {
    const tsc = await run(
      ["bun", join(repo, "node_modules/typescript-7/bin/tsc"), "-p", "."],
      scratch,
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  }, 60_000);

  test("a call the API does not allow does not compile", async () => {
    await Bun.write(
      join(scratch, "wrong.ts"),
      `import { createClient, paginate } from "@platform/client";
const api = createClient({ baseUrl: "${base}" });
await api.POST("/api/leaderboard", { body: { playerName: "Ada", score: "many" } });
await api.GET("/api/v1/no-such-path/");
for await (const me of paginate(api, "/api/v1/auth/me/")) console.log(me);
export {};
`,
    );
    // The project's own settings, on this file alone.
    const settings = (await Bun.file(join(scratch, "tsconfig.json")).json()) as object;
    await Bun.write(
      join(scratch, "tsconfig.wrong.json"),
      JSON.stringify({ ...settings, include: ["wrong.ts"] }),
    );
    const tsc = await run(
      ["bun", join(repo, "node_modules/typescript-7/bin/tsc"), "-p", "tsconfig.wrong.json"],
      scratch,
    );
    expect(tsc.code).not.toBe(0);
    expect(tsc.stdout).toContain("wrong.ts(3,");
    expect(tsc.stdout).toContain("wrong.ts(4,");
    // Not a paged list.
    expect(tsc.stdout).toContain("wrong.ts(5,");
  }, 60_000);

  test("the README example runs against the stack through the gateway", async () => {
    const ran = await run(["bun", "example.ts"], scratch);
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("Ada is #");
    expect(ran.stdout).toMatch(/signed in as ada-\d+@example\.org \(applicant\)/);
    expect(ran.stdout).toMatch(/still ada-\d+@example\.org; renewed: true/);
    expect(ran.stdout).toMatch(/2 sign-ins: .*this one/);
    expect(ran.stdout).toContain("programs in the catalog");
    expect(ran.stdout).toContain("without a token: 401 UNAUTHORIZED");
    expect(ran.stdout).toMatch(/401 UNAUTHORIZED [0-9a-f-]{36}/);
    expect(ran.stdout).toContain("no answer: NETWORK_ERROR");
  }, 60_000);
});
