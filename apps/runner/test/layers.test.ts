/**
 * Each layer on its own, every other one switched off: each must stop what it is there to stop.
 * (The static layer alone is static.test.ts: it needs no process.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { detectKernelLayers } from "../src/sandbox/layers.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { defaultLimits } from "../src/sandbox/setup.ts";
import {
  bwrapPath,
  connectionWitness,
  ENV_SECRET_NAME,
  envSecret,
  fileWitness,
  NO_LAYERS,
  TEST_ROOT,
  testHarness,
  testLibraries,
  testRunner,
} from "./support.ts";

const listener = connectionWitness();
const files = fileWitness();
afterAll(() => {
  listener.stop();
  files.remove();
});

function withRunner(layers: Partial<typeof NO_LAYERS>) {
  const state: { runner?: SandboxRunner } = {};
  beforeAll(async () => {
    state.runner = await testRunner({ ...NO_LAYERS, ...layers });
  });
  afterAll(() => state.runner?.close());
  return (code: string, timeoutMs = 3_000) => {
    if (!state.runner) throw new Error("runner not started");
    return state.runner.run(code, timeoutMs);
  };
}

const fetchListener = `await fetch("http://127.0.0.1:${listener.port}/")`;
/**
 * Without pipes, a spawn reaches the process creation itself (the filter refuses it with
 * EPERM); with them it already fails at socketpair, which the allowlist does not have (ENOSYS).
 */
const NO_PIPES = '{ stdio: ["ignore", "ignore", "ignore"] }';

describe("runtime lockdown alone", () => {
  const run = withRunner({ lockdown: true });
  const cases: [string, string][] = [
    [fetchListener, "fetch"],
    ["const g = globalThis; g.fetch('http://x')", "globalThis"],
    ["[].constructor.constructor('return 1')()", "Function"],
    ["(async () => {}).constructor('return 1')", "Function"],
    ["Bun.file('/etc/hostname')", "Bun.file"],
    ["Bun.write('x.txt', 'y')", "Bun.write"],
    ["Bun.spawnSync(['id'])", "Bun.spawnSync"],
    ["Bun.stdin.text()", "Bun.stdin"],
    ["console.log(process.env)", "process"],
    ["new Worker('data:,1')", "Worker"],
    ["new ShadowRealm()", "ShadowRealm"],
    ["eval('1 + 1')", "eval"],
  ];
  for (const [code, capability] of cases) {
    test(`${capability}: ${code}`, async () => {
      const result = await run(code);
      expect(result.error).toBe(`SecurityError: '${capability}' is not available in the sandbox`);
      expect(result.output).toBe("");
    });
  }

  test("the blocked capability is reported even when the program catches it", async () => {
    const result = await run("try { fetch('http://x') } catch {} console.log('went on')");
    expect(result.error).toBe("SecurityError: 'fetch' is not available in the sandbox");
    expect(result.output).toBe("");
  });

  test("Bun's members cannot be put back: Bun is frozen", async () => {
    const result = await run(
      `for (const replace of [() => { Bun.file = () => "x"; }, () => Object.defineProperty(Bun, "write", { value: 1 })]) {
        try { replace(); console.log("replaced"); } catch (e) { console.log(e.name); }
      }
      console.log(Object.isFrozen(Bun));`,
    );
    expect(result.output).toBe("TypeError\nTypeError\ntrue\n");
  });

  test("Error.prepareStackTrace cannot be replaced to reach call sites", async () => {
    const result = await run(
      "try { Error.prepareStackTrace = (e, sites) => sites; } catch (e) { console.log(e.name) }",
    );
    expect(result.output).toBe("TypeError\n");
  });

  test("and nothing reached the listener", () => expect(listener.connections()).toBe(0));
});

describe("seccomp filter alone", () => {
  const run = withRunner({ seccomp: true });

  test("starting a process fails with EPERM", async () => {
    const result = await run(
      `Bun.spawnSync(["/bin/sh", "-c", "echo escaped > ${files.forbidden}"], ${NO_PIPES})`,
    );
    expect(result.error).toContain("EPERM");
    expect(files.written()).toBe(false);
  });

  test("node's child_process fails too", async () => {
    const result = await run(
      `process.getBuiltinModule("node:child_process").execSync("touch ${files.forbidden}", { stdio: "ignore" })`,
    );
    expect(result.error).toContain("EPERM");
    expect(files.written()).toBe(false);
  });

  test("no socket can be opened: the listener on 127.0.0.1 sees nothing", async () => {
    const result = await run(fetchListener);
    expect(result.error).not.toBeNull();
    expect(listener.connections()).toBe(0);
  });

  test("other processes cannot be signalled", async () => {
    const result = await run(`process.kill(${process.pid}, "SIGTERM")`);
    expect(result.error).toContain("EPERM");
  });
});

describe.skipIf(!bwrapPath)(
  "seccomp filter installed by bubblewrap (namespaces on, nothing else)",
  () => {
    const run = withRunner({ namespaces: true, seccomp: true });
    const fs = "process.getBuiltinModule('node:fs')";
    const filterStatus = `const status = ${fs}.readFileSync("/proc/self/status", "utf8");
    console.log(/Seccomp:\\s+(\\d)/.exec(status)?.[1], /NoNewPrivs:\\s+(\\d)/.exec(status)?.[1]);`;

    test("Bun runs under the filter from its start, with no_new_privs", async () => {
      const result = await run(filterStatus);
      expect(result.output).toBe("2 1\n");
    });

    test("starting a process fails with EPERM", async () => {
      const result = await run(
        `Bun.spawnSync(["/bin/sh", "-c", "echo escaped > ${files.forbidden}"], ${NO_PIPES})`,
      );
      expect(result.error).toContain("EPERM");
      expect(files.written()).toBe(false);
    });

    test("no socket can be created at all (the filter, not only the empty network)", async () => {
      const result = await run("await Bun.udpSocket({})");
      expect(result.error).toContain("EACCES");
    });

    test("execve, which bubblewrap needs to start Bun, only restarts Bun under the same filter", async () => {
      const script = `${filterStatus}
      try { Bun.spawnSync(["/bun", "--version"], ${NO_PIPES}); console.log("spawned"); } catch (e) { console.log(e.code); }`;
      // Through libc: Bun's process.execve is refused in the worker a program runs in.
      const result = await run(`import { dlopen, ptr } from "bun:ffi";
        const { symbols } = dlopen("libc.so.6", { execve: { args: ["ptr", "ptr", "ptr"], returns: "i32" } });
        const cString = (text) => Buffer.from(text + "\\0");
        const strings = ["bun", "-e", ${JSON.stringify(script)}].map(cString);
        const argv = new BigUint64Array([...strings.map((text) => BigInt(ptr(text))), 0n]);
        symbols.execve(ptr(cString("/proc/self/exe")), ptr(argv), ptr(new BigUint64Array(1)));
        console.log("execve failed");`);
      expect(result.output).toBe("2 1\nEPERM\n");
    });
  },
);

describe.skipIf(!bwrapPath)(
  "resource limits on a sandbox inside bubblewrap (set by the runner on its pid)",
  () => {
    const run = withRunner({ namespaces: true, rlimits: true });

    test("the limits are those of the Bun process itself", async () => {
      const result = await run(
        "const limits = process.getBuiltinModule('node:fs').readFileSync('/proc/self/limits', 'utf8'); for (const name of ['Max open files', 'Max file size', 'Max cpu time']) console.log(limits.split('\\n').find((line) => line.startsWith(name)).replace(/\\s+/g, ' ').trim())",
      );
      expect(result.output).toBe(
        "Max open files 64 64 files\nMax file size 0 0 bytes\nMax cpu time 10 10 seconds\n",
      );
    });

    test("memory: an allocation past the limit fails", async () => {
      const result = await run("const a = []; for (;;) a.push(new Uint8Array(1 << 20).fill(1));");
      expect(result.error).toMatch(/Out of memory/);
    });
  },
);

describe.skipIf(!bwrapPath)("namespaces alone (bubblewrap)", () => {
  const run = withRunner({ namespaces: true });

  test("no network: the listener on the host's 127.0.0.1 sees nothing", async () => {
    const result = await run(fetchListener);
    expect(result.error).not.toBeNull();
    expect(listener.connections()).toBe(0);
  });

  test("no host files: the marker is not there to read, nothing can be written", async () => {
    const fs = "process.getBuiltinModule('node:fs')";
    const read = await run(
      `console.log(${fs}.readFileSync(${JSON.stringify(files.marker)}, "utf8"))`,
    );
    expect(read.error).toContain("ENOENT");
    expect(read.output).not.toContain(files.secret);
    const write = await run(`${fs}.writeFileSync(${JSON.stringify(files.forbidden)}, "x")`);
    expect(write.error).not.toBeNull();
    expect(files.written()).toBe(false);
  });

  test("not even bubblewrap's own root can take a file", async () => {
    const result = await run(`process.getBuiltinModule("node:fs").mkdirSync("/made-here")`);
    expect(result.error).toContain("EROFS");
  });

  test("no environment: the runner's secret is not in it", async () => {
    const result = await run(
      `console.log(JSON.stringify(process.env), Bun.env.${ENV_SECRET_NAME})`,
    );
    expect(result.output).not.toContain(envSecret);
    expect(result.output).toContain("undefined");
  });

  test("no other process in sight", async () => {
    const result = await run(
      "console.log(process.getBuiltinModule('node:fs').readdirSync('/proc').filter((e) => /^\\d+$/.test(e)).length)",
    );
    expect(Number(result.output)).toBeLessThanOrEqual(3);
  });
});

describe("resource limits alone", () => {
  const run = withRunner({ rlimits: true });

  test("memory: an allocation past the limit fails", async () => {
    const result = await run("const a = []; for (;;) a.push(new Uint8Array(1 << 20).fill(1));");
    expect(result.error).toMatch(/Out of memory/);
    expect(result.timedOut).toBe(false);
  });

  test("open files: past the limit, EMFILE", async () => {
    const result = await run(
      "const fs = process.getBuiltinModule('node:fs'); for (let i = 0; i < 200; i++) fs.openSync('/dev/null', 'r');",
    );
    expect(result.error).toContain("EMFILE");
  });

  test("file size: no byte can be written to a file", async () => {
    const target = join(TEST_ROOT, `fsize-${crypto.randomUUID()}`);
    const result = await run(
      `process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(target)}, "data")`,
    );
    expect(result.error).toContain("EFBIG");
  });
});

describe("detection at start-up", () => {
  test.skipIf(!bwrapPath)(
    "this host provides every kernel layer, each verified from inside a sandbox",
    async () => {
      const layers = await detectKernelLayers({
        bunPath: process.execPath,
        bwrapPath,
        harnessDir: await testHarness(),
        libraries: testLibraries,
        limits: defaultLimits(128),
        workRoot: join(TEST_ROOT, "probe"),
      });
      expect(layers.seccomp).toMatchObject({ on: true });
      expect(layers.namespaces).toMatchObject({ on: true });
      expect(layers.rlimits).toMatchObject({ on: true });
    },
  );

  test("a probe out of time is asked again with a longer deadline: found, not missing", async () => {
    const layers = await detectKernelLayers({
      // 1 ms: no probe answers that fast, so each layer's first attempt runs out of time.
      probeDeadlinesMs: [1, 10_000],
      bunPath: process.execPath,
      bwrapPath,
      harnessDir: await testHarness(),
      libraries: testLibraries,
      limits: defaultLimits(128),
      workRoot: join(TEST_ROOT, "probe-retried"),
    });
    expect(layers.seccomp.on).toBe(true);
    expect(layers.rlimits.on).toBe(true);
    if (bwrapPath) expect(layers.namespaces.on).toBe(true);
  });

  test("a probe out of time at every deadline: the layer is off, and says so", async () => {
    const layers = await detectKernelLayers({
      probeDeadlinesMs: [1, 1],
      bunPath: process.execPath,
      bwrapPath: null,
      harnessDir: await testHarness(),
      libraries: testLibraries,
      limits: defaultLimits(128),
      workRoot: join(TEST_ROOT, "probe-out-of-time"),
    });
    const outOfTime = { on: false, detail: "the probe did not answer within 1, 1 ms" };
    expect(layers.seccomp).toEqual(outOfTime);
    expect(layers.rlimits).toEqual(outOfTime);
  });

  test("without bubblewrap, namespaces are reported missing and the rest still detected", async () => {
    const layers = await detectKernelLayers({
      bunPath: process.execPath,
      bwrapPath: null,
      harnessDir: await testHarness(),
      libraries: testLibraries,
      limits: defaultLimits(128),
      workRoot: join(TEST_ROOT, "probe-without-bwrap"),
    });
    expect(layers.namespaces).toEqual({ on: false, detail: "bwrap (bubblewrap) is not installed" });
    expect(layers.seccomp.on).toBe(true);
  });
});
