/**
 * The checker processes (checker/main.ts), seen from the runner: a few long-lived Bun processes,
 * each checking one program at a time under a memory limit (prlimit, like the sandboxes) and a
 * time limit (the runner kills it). A program that exhausts either gets a clear error and costs
 * only that checker, which is replaced; the runner's own memory and event loop never see it.
 */
import { readFileSync } from "node:fs";
import type { Logger } from "@platform/server";
import { ARENA_RESERVE_MB, applyLimits, type KernelLimits } from "../limits.ts";
import { nextHandedOut } from "../pool.ts";
import { trackSpawned, watchCpu } from "../processes.ts";
import { mappedBytes } from "../readiness.ts";
import type { StaticVerdict } from "../static-check.ts";
import { readLines } from "../streams.ts";
import { CHECKER_READY, type CheckReply, MAX_JS_BYTES } from "./protocol.ts";
import { createVerdictCache } from "./verdicts.ts";

export type CheckerOptions = {
  size: number;
  bunPath: string;
  /** The built checker (harness.ts, CHECKER_FILE). */
  file: string;
  /** Memory and file limits of each checker; null where the host cannot set them. */
  limits: KernelLimits | null;
  /** Each checker installs the sandboxes' seccomp filter on itself before its first check. */
  seccomp: boolean;
  /** A check taking longer is stopped and the program refused. */
  timeoutMs: number;
  /** How long a check may wait for a checker (none can start: a broken host) before failing. */
  acquireTimeoutMs: number;
  logger: Logger;
};

export type CheckerPool = {
  /** With `client`, a verdict this client already got for this program comes from the cache. */
  check(code: string, staticCheck: boolean, client?: string): Promise<StaticVerdict>;
  /** `cached`: checks answered from the verdict cache (verdicts.ts). */
  stats(): { idle: number; busy: number; replaced: number; cached: number };
  close(): Promise<void>;
};

type Checker = {
  proc: Bun.Subprocess<"pipe", "pipe", "ignore">;
  ready: Promise<void>;
  /** Killed or exited: never handed out again. */
  dead: boolean;
  /** The answer to the request in progress, if any. */
  answer?: (reply: CheckReply | Error) => void;
};

/**
 * As for sandboxes (sandbox.ts): a check that has used this much CPU is demoted. An ordinary
 * check of 1000 characters uses well under a millisecond.
 */
const DEMOTE_AFTER_CPU_MS = 20;

const FAILED_START_BACKOFF_MS = 1_000;

/** A JSON-escaped reply can be at most six characters per byte of JavaScript, plus framing. */
const MAX_REPLY_CHARS = MAX_JS_BYTES * 6 + 4096;

const refusal = (message: string): StaticVerdict => ({
  ok: false,
  name: "RangeError",
  message,
  blocked: [],
});

export function createCheckerPool(opts: CheckerOptions): CheckerPool {
  const idle: Checker[] = [];
  const waiters: ((checker: Checker) => void)[] = [];
  let busy = 0;
  let replaced = 0;
  let cached = 0;
  let nextId = 0;
  let closed = false;
  const all = new Set<Checker>();
  // A few hundred programs: most are well under a kilobyte of JavaScript, none over 64 KiB.
  const verdicts = createVerdictCache({ maxEntries: 512, maxChars: 4 * 1024 * 1024 });

  const spawn = () =>
    Bun.spawn([opts.bunPath, "--no-macros", opts.file, ...(opts.seccomp ? ["--seccomp"] : [])], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "ignore",
      // Bun's allocator arena outside the address-space limit, as in the sandboxes.
      env: { MIMALLOC_ARENA_RESERVE: `${ARENA_RESERVE_MB}MiB` },
    });

  const retryLater = () => {
    setTimeout(() => closed || release(start()), FAILED_START_BACKOFF_MS);
  };

  const start = (): Checker | undefined => {
    let proc: ReturnType<typeof spawn>;
    try {
      proc = spawn();
    } catch (error) {
      opts.logger.error("a checker could not be started", { err: error });
      retryLater();
      return undefined;
    }
    let onReady = () => {};
    let started = false;
    const checker: Checker = {
      proc,
      ready: new Promise((resolve) => (onReady = resolve)),
      dead: false,
    };
    trackSpawned(proc);
    all.add(checker);
    const kill = () => retire(checker);
    void readLines(
      proc.stdout,
      (line, clipped) => {
        if (line === CHECKER_READY) {
          started = true;
          limit(checker);
          onReady();
          return;
        }
        const answer = checker.answer;
        checker.answer = undefined;
        try {
          if (clipped) throw new Error("reply too long");
          answer?.(JSON.parse(line) as CheckReply);
        } catch (error) {
          answer?.(error instanceof Error ? error : new Error(String(error)));
          kill();
        }
      },
      { maxLineChars: MAX_REPLY_CHARS, maxBytes: Number.POSITIVE_INFINITY, onOverflow: kill },
    );
    void proc.exited.then(() => {
      onReady();
      // Retired (a bomb's time, a demotion) is expected; dying by itself is worth a warning.
      const expected = checker.dead;
      checker.dead = true;
      all.delete(checker);
      checker.answer?.(new Error("the checker stopped"));
      const at = idle.indexOf(checker);
      if (at !== -1) idle.splice(at, 1);
      if (closed) return;
      replaced++;
      const how = { exitCode: proc.exitCode, signal: proc.signalCode, replaced };
      if (expected) opts.logger.info("checker replaced", how);
      else opts.logger.warn("checker stopped (a program exhausted its memory?); replaced", how);
      // One that never got ready means a broken host: retried, but not in a tight loop.
      if (started) release(start());
      else retryLater();
    });
    return checker;
  };

  /** The memory limit, set once the checker has loaded: its address space then plus the cap. */
  const limit = (checker: Checker) => {
    if (!opts.limits) return;
    try {
      const status = readFileSync(`/proc/${checker.proc.pid}/status`, "utf8");
      const refused = applyLimits(checker.proc.pid, opts.limits, mappedBytes(status));
      if (refused.length > 0) throw new Error(`limits refused: ${refused.join(", ")}`);
    } catch (error) {
      opts.logger.error("checker limits could not be set", { err: error });
      retire(checker);
    }
  };

  /** Killed now; its exit starts the replacement. */
  const retire = (checker: Checker) => {
    checker.dead = true;
    checker.proc.kill("SIGKILL");
  };

  const release = (checker: Checker | undefined) => {
    if (!checker || checker.dead) return;
    const waiter = waiters.shift();
    if (waiter) waiter(checker);
    else idle.push(checker);
  };

  const take = (): Promise<Checker> => {
    for (let checker = idle.shift(); checker; checker = idle.shift()) {
      if (!checker.dead) return Promise.resolve(checker);
    }
    return nextHandedOut(waiters, opts.acquireTimeoutMs, "checker");
  };

  const ask = async (checker: Checker, code: string, staticCheck: boolean, client?: string) => {
    await checker.ready;
    const id = nextId++;
    const reply = new Promise<CheckReply | Error>((resolve) => (checker.answer = resolve));
    if (checker.dead) checker.answer?.(new Error("the checker stopped"));
    // A check still going after a moment is a program built to be slow: it yields its core.
    let demoted = false;
    const stopWatching = watchCpu(checker.proc.pid, DEMOTE_AFTER_CPU_MS, {
      onDemoted: () => {
        demoted = true;
      },
    });
    const timer = setTimeout(() => {
      checker.answer?.(new Error("timeout"));
      checker.answer = undefined;
      retire(checker);
    }, opts.timeoutMs);
    checker.proc.stdin.write(`${JSON.stringify({ id, code, static: staticCheck })}\n`);
    checker.proc.stdin.flush();
    const answer = await reply;
    clearTimeout(timer);
    stopWatching();
    // Its priority cannot be raised again without privileges: replaced instead.
    if (demoted) retire(checker);
    if (answer instanceof Error) {
      return answer.message === "timeout"
        ? refusal(`compiling the program took longer than ${opts.timeoutMs} ms; it was stopped`)
        : refusal(
            `compiling the program ran out of memory${opts.limits ? ` (the limit is ${opts.limits.memoryMb} MiB)` : ""}`,
          );
    }
    if (client !== undefined) verdicts.set(client, staticCheck, code, answer.verdict);
    return answer.verdict;
  };

  for (let i = 0; i < opts.size; i++) release(start());

  return {
    async check(code, staticCheck, client) {
      const known = client === undefined ? undefined : verdicts.get(client, staticCheck, code);
      if (known) {
        cached++;
        return known;
      }
      for (let attempt = 1; ; attempt++) {
        const checker = await take();
        await checker.ready;
        // One that died while idle or starting: take another, a few times at most.
        if (checker.dead && attempt < 3) continue;
        busy++;
        try {
          return await ask(checker, code, staticCheck, client);
        } finally {
          busy--;
          release(checker);
        }
      }
    },
    stats: () => ({ idle: idle.length, busy, replaced, cached }),
    async close() {
      closed = true;
      const procs = [...all].map((checker) => checker.proc);
      for (const checker of all) retire(checker);
      await Promise.all(procs.map((proc) => proc.exited));
    },
  };
}
