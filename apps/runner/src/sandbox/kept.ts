/**
 * Sandboxes kept for their client. A client whose last two runs ended cleanly, one soon after
 * the other, gets a reusable sandbox started for it (child/supervisor.ts), and another when a
 * clean run of it found its own busy (up to `perClient`); from then on each of its runs takes a
 * fresh worker there instead of a whole new sandbox, and after each clean run the sandbox
 * starts the next worker at once (Sandbox.rearm), so the next run finds it waiting.
 * A sandbox never serves another client: the trust boundary of a process stays one client
 * (docs/security-runner.md, "Sandboxes reused by one client"). At most `max` are kept; the least
 * recently kept idle one makes room, and one unused for `idleMs` is disposed of.
 *
 * Why not every sandbox: a reusable sandbox's first worker costs about as much again as Bun's
 * own start (runner.md), so a client that runs once is served as cheaply by a single-use one.
 */
import type { Sandbox } from "./sandbox.ts";

/** How long a used sandbox may take to start its next worker and say "ready" again. */
const REARM_WAIT_MS = 2_000;
/** Clients whose recent runs are remembered (the oldest is forgotten first). */
const HISTORY_SIZE = 4_096;

type Entry = {
  client: string;
  sandbox: Sandbox;
  /** Whether it became ready (a new sandbox) or ready again (rearmed) with its allowance. */
  ready: Promise<boolean>;
  /** Rearming after a run: worth a few milliseconds' wait. Starting: a fresh sandbox is faster. */
  rearming: boolean;
  /** Ready and waiting (its idle timer running). */
  idle: boolean;
  timer?: ReturnType<typeof setTimeout>;
};

export type KeptSandboxes = {
  /** `client`'s own sandbox, once it is ready for a program; undefined if none is. */
  take(client: string): Promise<Sandbox | undefined>;
  /**
   * After a run of `client` in one of its sandboxes (taken here): kept for the next run when
   * `keep`, else disposed of.
   */
  giveBack(client: string, sandbox: Sandbox, keep: boolean): void;
  /**
   * Counts a run of `client` (`own`: in one of its sandboxes); starts a reusable sandbox for a
   * client that keeps coming back.
   */
  noteRun(client: string, clean: boolean, own: boolean): void;
  /** Kept and waiting for their client's next run; and getting ready (starting, rearming). */
  counts(): { waiting: number; preparing: number };
  /** Disposes of every sandbox kept or getting ready (not those running a program). */
  clear(): Promise<void>;
  close(): Promise<void>;
};

export function createKeptSandboxes(options: {
  /** Sandboxes kept (waiting or getting ready) for all clients together. */
  max: number;
  /** Sandboxes one client may have, kept or in use (its most runs at once). */
  perClient: number;
  idleMs: number;
  /** Starts a reusable sandbox. */
  start: () => Sandbox;
  onStartFailed: (error: unknown) => void;
}): KeptSandboxes {
  const { max, idleMs } = options;
  /** In the order they were kept: the first idle one is the least recently used. */
  const entries: Entry[] = [];
  /** Per client: clean runs in a row, and when the last run ended. */
  const history = new Map<string, { streak: number; at: number }>();
  /** Per client: its sandboxes running a program now. */
  const inUse = new Map<string, number>();
  const addInUse = (client: string, delta: number) => {
    const count = (inUse.get(client) ?? 0) + delta;
    if (count > 0) inUse.set(client, count);
    else inUse.delete(client);
  };
  const owned = (client: string) =>
    (inUse.get(client) ?? 0) + entries.filter((entry) => entry.client === client).length;
  let closed = false;

  const remove = (entry: Entry) => {
    const index = entries.indexOf(entry);
    if (index !== -1) entries.splice(index, 1);
    clearTimeout(entry.timer);
  };
  const drop = (entry: Entry) => {
    remove(entry);
    void entry.sandbox.dispose();
  };
  /** Room for one more, if need be by dropping the least recently used idle one. */
  const makeRoom = () => {
    if (entries.length < max) return true;
    const oldest = entries.find((entry) => entry.idle);
    if (oldest) drop(oldest);
    return oldest !== undefined;
  };
  const add = (entry: Entry) => {
    entries.push(entry);
    void entry.ready.then((ok) => {
      // Taken meanwhile: the run that took it waits for this answer itself.
      if (!entries.includes(entry)) return;
      if (!ok || closed) return drop(entry);
      entry.idle = true;
      entry.timer = setTimeout(() => drop(entry), idleMs);
    });
  };

  const clear = async () => {
    const all = entries.splice(0);
    for (const entry of all) clearTimeout(entry.timer);
    await Promise.all(all.map((entry) => entry.sandbox.dispose()));
  };

  return {
    async take(client) {
      const entry =
        entries.find((candidate) => candidate.client === client && candidate.idle) ??
        entries.find((candidate) => candidate.client === client && candidate.rearming);
      if (!entry) return undefined;
      remove(entry);
      addInUse(client, 1);
      if ((await entry.ready) && entry.sandbox.alive()) return entry.sandbox;
      addInUse(client, -1);
      void entry.sandbox.dispose();
      return undefined;
    },

    giveBack(client, sandbox, keep) {
      addInUse(client, -1);
      if (!keep || closed || !makeRoom()) return void sandbox.dispose();
      const ready = sandbox.rearm(REARM_WAIT_MS);
      add({ client, sandbox, ready, rearming: true, idle: false });
    },

    noteRun(client, clean, own) {
      const now = performance.now();
      const last = history.get(client);
      const streak = clean ? (last && now - last.at <= idleMs ? last.streak : 0) + 1 : 0;
      history.delete(client);
      history.set(client, { streak, at: now });
      if (history.size > HISTORY_SIZE) history.delete(history.keys().next().value ?? "");
      // A client's first reusable sandbox, or one more: this run went to a single-use one, so
      // when it was taken the client's own were all running programs (take waits for one that
      // is getting ready), unless one was still starting.
      if (streak < 2 || own || closed || owned(client) >= options.perClient) return;
      const starting = entries.some((e) => e.client === client && !e.idle && !e.rearming);
      if (starting || !makeRoom()) return;
      const sandbox = options.start();
      const ready = sandbox.ready.then(
        () => true,
        (error: unknown) => {
          options.onStartFailed(error);
          return false;
        },
      );
      add({ client, sandbox, ready, rearming: false, idle: false });
    },

    counts() {
      const waiting = entries.filter((entry) => entry.idle).length;
      return { waiting, preparing: entries.length - waiting };
    },

    clear,

    async close() {
      closed = true;
      await clear();
    },
  };
}
