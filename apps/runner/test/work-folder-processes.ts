/**
 * Real runner processes for the work-folder tests: a /dev/shm of their own (a tmpfs mounted in
 * a mount namespace that only they enter, so the machine's other runners are never touched),
 * runners started in it, in this PID namespace or a new one, and a script run from a new one.
 * All of it needs root (a mount or PID namespace without a user namespace).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, waitForHttp } from "@platform/server/testing";

const REPO_ROOT = join(import.meta.dir, "../../..");

export type PrivateShm = {
  /** The tmpfs as this process reaches it (through the holder's root). */
  path: string;
  /** Runs `cmd` in the mount namespace. */
  enter(cmd: string[]): string[];
  /** The runners' folders in it. */
  folders(): string[];
  stop(): Promise<void>;
};

/** A tmpfs on /dev/shm in a mount namespace held open by a sleeping process. */
export async function privateShm(): Promise<PrivateShm> {
  const holder = Bun.spawn(
    [
      "unshare",
      "--mount",
      "--propagation",
      "private",
      "sh",
      "-c",
      "mount -t tmpfs -o mode=1777 tmpfs /dev/shm && echo mounted && exec sleep 600",
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const { value } = await holder.stdout.getReader().read();
  if (!new TextDecoder().decode(value).includes("mounted")) {
    holder.kill("SIGKILL");
    throw new Error("the private /dev/shm could not be mounted");
  }
  const path = `/proc/${holder.pid}/root/dev/shm`;
  return {
    path,
    enter: (cmd) => ["nsenter", `--mount=/proc/${holder.pid}/ns/mnt`, "--", ...cmd],
    folders: () =>
      readdirSync(path)
        .filter((name) => name.startsWith("runner-work-"))
        .toSorted(),
    stop: async () => {
      holder.kill("SIGKILL");
      await holder.exited;
    },
  };
}

export type RunnerProcess = {
  url: string;
  run(code: string): Promise<{ status: number; output?: string }>;
  alive(): boolean;
  stop(): Promise<void>;
};

/** A runner (apps/runner/src/index.ts) in the private /dev/shm, ready when this resolves. */
export async function startRunner(
  shm: PrivateShm,
  { newPidNamespace }: { newPidNamespace: boolean },
): Promise<RunnerProcess> {
  const port = await freePort();
  // Entering a mount namespace moves to its root: the entry file by its full path.
  const runner = [process.execPath, join(REPO_ROOT, "apps/runner/src/index.ts")];
  const cmd = newPidNamespace
    ? ["unshare", "--pid", "--fork", "--kill-child", "--mount-proc", ...runner]
    : runner;
  const proc = Bun.spawn(shm.enter(cmd), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      RUNNER_PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
      RUNNER_POOL_SIZE: "1",
      RUNNER_CHECKERS: "1",
      RUNNER_MAX_CONCURRENCY: "2",
      REDIS_URL: "",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/health/ready`, 30_000);
  } catch (error) {
    proc.kill("SIGKILL");
    throw error;
  }
  // nsenter execs the runner; unshare forks it, and does not pass SIGTERM on.
  const runnerPid = newPidNamespace ? (childrenOf(proc.pid)[0] ?? proc.pid) : proc.pid;
  return {
    url,
    async run(code) {
      const response = await fetch(`${url}/api/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code }),
      });
      const body = (await response.json()) as { output?: string };
      return response.status === 200
        ? { status: 200, output: body.output }
        : { status: response.status };
    },
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async stop() {
      try {
        process.kill(runnerPid, "SIGTERM");
      } catch {
        // Gone already.
      }
      const stopped = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000)]);
      if (!stopped) proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

/** Runs a Bun script as pid 1 of a new PID namespace (its own /proc); returns what it printed. */
export async function outsideNamespace(script: string): Promise<string> {
  const proc = Bun.spawn(
    ["unshare", "--pid", "--fork", "--kill-child", "--mount-proc", process.execPath, "-e", script],
    { cwd: import.meta.dir, stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`the script failed (${code}): ${err}`);
  return out;
}

function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number),
  );
}
