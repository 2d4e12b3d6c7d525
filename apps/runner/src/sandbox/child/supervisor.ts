/**
 * A reusable sandbox's main thread. It runs no submitted code: it installs the seccomp filter
 * when bubblewrap has not, then runs programs one at a time, each in a worker of its own
 * running the harness (main.ts): a fresh JavaScript VM with its own heap, globals and event
 * loop, locked down before it says "ready". When a worker ends, this thread says `ended` with
 * its exit code and, if the worker ended cleanly, starts the next at once, so the next program
 * of the same client finds one waiting; after any other end the process ends. The runner
 * decides whether a sandbox is reused (kept.ts); one it does not want is killed, whatever this
 * thread is doing.
 *
 * Bun's own start-up and the first worker's are paid once per sandbox; each later worker costs
 * about half of Bun's start (runner.md, "Sandboxes reused by one client").
 */
import { type ChildConfig, HARNESS_FILE, NO_MORE_RUNS, REUSABLE_EXITS } from "../protocol.ts";

const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const control = Bun.stderr.writer();

function send(message: Record<string, unknown>): void {
  try {
    control.write(`${JSON.stringify(message)}\n`);
    control.flush();
  } catch {
    // The runner is gone; it kills this process (or bubblewrap's parent-death signal does).
  }
}

// Without bubblewrap, the filter is this process's own job, before any worker (and so any
// untrusted code) exists: every thread started later inherits it.
let seccomp = "off";
if (config.seccomp) {
  try {
    const kernel: typeof import("./kernel.ts") = import.meta.require(config.seccomp);
    kernel.installSeccomp(process.pid);
    seccomp = "on";
  } catch (error) {
    seccomp = `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const harness = `${import.meta.dir}/${HARNESS_FILE}`;
// The workers do not install the filter: this thread did (or bubblewrap), and says how it went.
const workerConfig = JSON.stringify({ ...config, seccomp: null } satisfies ChildConfig);

function startWorker(): void {
  const worker = new Worker(harness, { argv: [workerConfig, seccomp] });
  // The worker reports its program's errors itself (a control line); Bun's own report of an
  // uncaught one would only repeat it on standard error.
  worker.addEventListener("error", (event) => event.preventDefault());
  worker.addEventListener("close", (event) => {
    const { code } = event as CloseEvent & { code: number };
    if (code === NO_MORE_RUNS) process.exit(0);
    send({ t: "ended", code });
    // After any other end (a blocked capability, an error not reported in full, a crash), the
    // runner will not reuse this sandbox: the process ends with the worker's code.
    if (REUSABLE_EXITS.has(code)) startWorker();
    else process.exit(code);
  });
}
startWorker();
