/**
 * The escape corpus against the whole runner through HTTP, twice: with every layer, and with the
 * static check off (so every payload meets the runtime and kernel layers); then a third time
 * from one client, whose runs soon go to a sandbox kept for it (kept.ts), with the static check
 * off, so that every payload also meets a reusable sandbox and the run after it is that
 * client's next. After each payload: nothing got out, the runner answers a normal request
 * normally, no sandbox process is left.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { App } from "../src/app.ts";
import type { LayerSwitches, SandboxRunner } from "../src/sandbox/runner.ts";
import { CORPUS, type Payload, type Witnesses } from "./corpus.ts";
import {
  ALL_LAYERS,
  bwrapPath,
  connectionWitness,
  ENV_SECRET_NAME,
  envSecret,
  fileWitness,
  type RunBody,
  runRequest,
  settleProcesses,
  testApp,
} from "./support.ts";

const POOL_SIZE = 1;
/** A warm sandbox under bubblewrap is two processes: bwrap and Bun (pid 1 inside). */
const PROCESSES_PER_SANDBOX = 2;

const listener = connectionWitness();
const files = fileWitness();
const witnesses: Witnesses = {
  port: listener.port,
  marker: files.marker,
  forbidden: files.forbidden,
  secretName: ENV_SECRET_NAME,
};
afterAll(() => {
  listener.stop();
  files.remove();
});

test("the corpus has at least 40 payloads", () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(40);
});

function corpusAgainst(
  label: string,
  layers: LayerSwitches,
  checkExpectation: boolean,
  /** Sent straight to the runner as this client's, not through HTTP (which has no address). */
  client?: string,
) {
  describe.skipIf(!bwrapPath)(label, () => {
    let app: App;
    let runner: SandboxRunner;
    beforeAll(async () => {
      ({ app, runner } = await testApp(layers, { poolSize: POOL_SIZE }));
    });
    afterAll(() => runner.close());

    const run = async (body: { code: string; timeout?: number }) => {
      if (client) return runner.run(body.code, body.timeout ?? 5_000, client);
      const response = await app.handle(runRequest(body));
      expect(response.status).toBe(200);
      return (await response.json()) as RunBody;
    };

    for (const payload of CORPUS) {
      test(payload.name, async () => {
        // The client's sandbox waits for it: the payload runs there (kept.ts takes it first).
        if (client) await keptFor(runner, client);
        const result = await run({
          code: payload.code(witnesses),
          timeout: payload.timeout ?? 2_000,
        });
        if (checkExpectation) expectOutcome(payload, result);
        // Nothing got out.
        const seen = `${result.output}\n${result.error ?? ""}`;
        expect(seen).not.toContain(files.secret);
        expect(seen).not.toContain(envSecret);
        expect(listener.connections()).toBe(0);
        expect(files.written()).toBe(false);
        // The runner is unharmed and answers the next request normally.
        expect(await run({ code: "console.log('still fine')" })).toMatchObject({
          output: "still fine\n",
          error: null,
          timedOut: false,
        });
        // Only the pool's warm sandboxes remain, and the one kept for this client (if the
        // last run was clean).
        const { kept, keptPreparing } = runner.stats();
        const expected = (POOL_SIZE + kept + keptPreparing) * PROCESSES_PER_SANDBOX;
        const left = await settleProcesses(expected);
        expect(left.length).toBeLessThanOrEqual(expected);
      });
    }
  });
}

/** How long a client's kept sandbox may take to be ready: within the test's own 5 s. */
const KEPT_WITHIN_MS = 3_000;

/**
 * Clean runs of `client` until a sandbox is kept for it and waiting (two in a row get one). Runs
 * and time are bounded apart: a sandbox being prepared is waited for, not counted as a run (on
 * a busy machine its start took longer than twenty 10 ms looks, and the test failed).
 */
async function keptFor(runner: SandboxRunner, client: string) {
  const deadline = Date.now() + KEPT_WITHIN_MS;
  for (let runs = 0; runner.stats().kept === 0; ) {
    if (runs > 20 || Date.now() > deadline) {
      throw new Error(
        `no sandbox was kept for the client (${runs} runs, ${JSON.stringify(runner.stats())})`,
      );
    }
    if (runner.stats().keptPreparing > 0) await Bun.sleep(10);
    else {
      await runner.run("console.log(0)", 2_000, client);
      runs++;
    }
  }
}

function expectOutcome(payload: Payload, result: RunBody) {
  switch (payload.expect) {
    case "security":
      expect(result.error ?? "").toStartWith("SecurityError:");
      expect(result.output).toBe("");
      break;
    case "error":
      expect(result.error).not.toBeNull();
      expect(result.timedOut).toBe(false);
      break;
    case "timeout":
      expect(result.timedOut).toBe(true);
      break;
    case "stopped":
      expect(result.error).not.toBeNull();
      break;
    case "clean":
      expect(result.error).toBeNull();
      break;
  }
}

corpusAgainst("every layer on", ALL_LAYERS, true);
corpusAgainst(
  "static check off: runtime and kernel layers only",
  { ...ALL_LAYERS, static: false },
  false,
);
corpusAgainst(
  "static check off, one client's runs (reusable sandboxes)",
  { ...ALL_LAYERS, static: false },
  false,
  "one-client",
);
