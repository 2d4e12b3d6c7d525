/**
 * The embedded stack's supervisor (`bun run start`, `bun run dev`): one process per app, each
 * restarted with backoff when it dies while the others keep serving, every exit and restart
 * logged. turbo ran them before, and ended every task when one failed: one crash stopped the
 * whole stack, gateway included. Containers and Kubernetes restart apps themselves and do not
 * use this.
 */

export type Backoff = {
  /** The first restart waits this long; each failure in a row doubles it, up to maxMs. */
  initialMs: number;
  maxMs: number;
  /** An app that ran this long before dying is taken as healthy: its next restart is quick. */
  stableAfterMs: number;
};

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, stableAfterMs: 30_000 };

/** How long to wait before the `failures`-th restart in a row (1, 2, …). */
export function restartDelay(failures: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, failures - 1));
}

export type AppSpec = { name: string; cwd: string; cmd: string[] };

type Supervised = {
  spec: AppSpec;
  proc: Bun.Subprocess<"ignore", "pipe", "pipe"> | null;
  failuresInARow: number;
  timer: ReturnType<typeof setTimeout> | null;
};

export type Supervisor = {
  /** The running process of each app (absent while it waits to be restarted). */
  pids(): Record<string, number | undefined>;
  /** Stops restarting, sends `signal` to every app, waits for them (SIGKILL past graceMs). */
  stop(signal?: "SIGTERM" | "SIGINT", graceMs?: number): Promise<void>;
};

/** Each line an app writes, prefixed with its name (apps log one JSON object per line). */
async function relay(name: string, stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) sink.write(`${name} | ${line}\n`);
  }
  if (pending) sink.write(`${name} | ${pending}\n`);
}

export function supervise(
  apps: AppSpec[],
  opts: {
    env?: Record<string, string | undefined>;
    backoff?: Backoff;
    log?: (line: string) => void;
  },
): Supervisor {
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  const log = opts.log ?? ((line: string) => process.stderr.write(`supervisor | ${line}\n`));
  let stopping = false;
  const all: Supervised[] = apps.map((spec) => ({
    spec,
    proc: null,
    failuresInARow: 0,
    timer: null,
  }));

  const start = (app: Supervised) => {
    app.timer = null;
    if (stopping) return;
    const startedAt = Date.now();
    const proc = Bun.spawn(app.spec.cmd, {
      cwd: app.spec.cwd,
      env: opts.env ?? process.env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    app.proc = proc;
    log(`${app.spec.name} started (pid ${proc.pid})`);
    void relay(app.spec.name, proc.stdout, process.stdout);
    void relay(app.spec.name, proc.stderr, process.stderr);
    void proc.exited.then((code) => {
      app.proc = null;
      if (stopping) return;
      const ranMs = Date.now() - startedAt;
      app.failuresInARow = ranMs >= backoff.stableAfterMs ? 1 : app.failuresInARow + 1;
      const delay = restartDelay(app.failuresInARow, backoff);
      const how = proc.signalCode ? `was killed by ${proc.signalCode}` : `exited with code ${code}`;
      log(
        `${app.spec.name} ${how} after ${(ranMs / 1000).toFixed(1)} s; restarting in ${delay} ms (failure ${app.failuresInARow} in a row); the other apps keep running`,
      );
      app.timer = setTimeout(() => start(app), delay);
    });
  };
  for (const app of all) start(app);

  return {
    pids: () => Object.fromEntries(all.map((a) => [a.spec.name, a.proc?.pid])),
    async stop(signal = "SIGTERM", graceMs = 20_000) {
      stopping = true;
      for (const app of all) if (app.timer) clearTimeout(app.timer);
      const running = all.flatMap((a) => (a.proc ? [a.proc] : []));
      for (const proc of running) proc.kill(signal);
      const killer = setTimeout(() => {
        for (const proc of running) proc.kill("SIGKILL");
      }, graceMs);
      await Promise.all(running.map((proc) => proc.exited));
      clearTimeout(killer);
    },
  };
}
