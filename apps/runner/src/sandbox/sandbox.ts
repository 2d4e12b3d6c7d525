/**
 * One sandbox process: started ahead of time, it runs one program; or, a reusable one
 * (spec.reuse), several programs of the same client one after another, each in a fresh worker
 * (child/supervisor.ts), when the pool asks it to (`rearm`). It is killed (its Bun process,
 * pid 1 of its namespace, so everything in it) and its private folder removed when it is
 * disposed of.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INFO_FD, PROGRAM_FILE, type SandboxSpec, sandboxCommand } from "./command.ts";
import {
  holdProcess,
  type ProcessHandle,
  trackSpawned,
  watchCpu,
  workerThreadFinder,
} from "./processes.ts";
import {
  type ControlMessage,
  type FinalMessage,
  GO_LINE,
  parseControlLine,
  REUSABLE_EXITS,
} from "./protocol.ts";
import { type Admission, admit, pidFromInfo, readmit } from "./readiness.ts";
import { readLines, readOutput } from "./streams.ts";

export type Outcome = {
  /** Console output, at most `maxOutputBytes` bytes of it. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
  /** The child's last word: an error, a blocked capability, or done. */
  final: FinalMessage | undefined;
  /** Null while the process is still exiting or serving (the run ended on the child's word). */
  exitCode: number | null;
  signal: string | null;
  /** Whatever else the child wrote on standard error (a crash report), capped. */
  diagnostics: string;
  /** The runner killed the process (time limit, output cap, a stream overflowing). */
  killedByRunner: boolean;
  /** The final message was longer than CONTROL_LINE_CHARS and arrived cut. */
  finalClipped: boolean;
  /**
   * The program ended by itself (done, or an error it threw), its output matched its count,
   * nothing else was written and it kept its priority: the sandbox may serve another run.
   */
  clean: boolean;
};

export type RunOptions = { timeoutMs: number; maxOutputBytes: number };

export type Sandbox = {
  readonly id: string;
  readonly workDir: string;
  /** It can serve more than one run (child/supervisor.ts). */
  readonly reusable: boolean;
  /** Resolves once the child has restricted itself and waits; rejects if it cannot. */
  readonly ready: Promise<void>;
  /** Runs given to this sandbox so far. */
  runs(): number;
  alive(): boolean;
  run(js: string, opts: RunOptions): Promise<Outcome>;
  /**
   * After a clean run: resolves true once the next worker waits for a program and the process
   * still has its whole memory and CPU allowance (readmit); false otherwise, or after `waitMs`.
   */
  rearm(waitMs: number): Promise<boolean>;
  dispose(): Promise<void>;
};

/**
 * The program could not be written to the sandbox's folder: it is gone (the runner's work
 * folder vanished, work-folder.ts). Nothing ran; the run may be given to another sandbox.
 */
export class SandboxFolderGoneError extends Error {
  override name = "SandboxFolderGoneError";
  constructor(workDir: string, cause: unknown) {
    super(`the sandbox's folder ${workDir} is gone`, { cause });
  }
}

const MAX_DIAGNOSTICS = 4096;
/**
 * Caps on standard error, enforced here whatever the program did to its own process: a control
 * line is cut at CONTROL_LINE_CHARS (an error's message included: the client sees at most
 * 8 KiB of it), and past CONTROL_BYTES in one run the sandbox is killed.
 */
export const CONTROL_LINE_CHARS = 16 * 1024;
const CONTROL_BYTES = 256 * 1024;
/** After its time limit and the kill, a run is answered within this long whatever it does. */
const KILL_GRACE_MS = 500;
/** A run that has used this much CPU is demoted to SCHED_IDLE (processes.ts). */
const DEMOTE_AFTER_CPU_MS = 10;

/** Makes the sandbox's folder and spawns its process; throws when either cannot be done. */
function spawnSandbox(spec: SandboxSpec, workDir: string) {
  // Not recursive: a work folder that vanished is not half made again here (work-folder.ts).
  mkdirSync(workDir, { mode: 0o700 });
  const { cmd, env, cwd, reportsPid, seccompFile } = sandboxCommand(spec, workDir);
  // bubblewrap reads the filter from a descriptor (SECCOMP_FD), opened for each sandbox.
  const filter = seccompFile === null ? [] : [openSync(seccompFile, "r")];
  try {
    // Its own process group, so one kill reaches everything it started.
    const proc = Bun.spawn(cmd, {
      env,
      cwd,
      stdio: ["pipe", "pipe", "pipe", ...(reportsPid ? ["pipe" as const] : []), ...filter],
      detached: true,
    });
    return { proc, reportsPid };
  } finally {
    for (const fd of filter) closeSync(fd);
  }
}

/**
 * A sandbox that could not be started (its folder or the harness gone, bubblewrap missing):
 * its `ready` rejects with why, as a start that failed later would. No process, nothing to run.
 */
export function failedStart(error: unknown, id = "", workDir = ""): Sandbox {
  const ready = Promise.reject(error);
  ready.catch(() => {});
  return {
    id,
    workDir,
    reusable: false,
    ready,
    runs: () => 0,
    alive: () => false,
    run: () => Promise.reject(error),
    rearm: async () => false,
    dispose: async () => {},
  };
}

/** Never throws: whatever stops a sandbox from starting rejects its `ready`. */
export function startSandbox(spec: SandboxSpec, workRoot: string): Sandbox {
  const id = Bun.randomUUIDv7().slice(-12);
  const workDir = join(workRoot, id);
  let spawned: ReturnType<typeof spawnSandbox>;
  try {
    spawned = spawnSandbox(spec, workDir);
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    return failedStart(error, id, workDir);
  }
  const { proc, reportsPid } = spawned;
  trackSpawned(proc);
  const infoFd = proc.stdio[INFO_FD];
  const pid = reportsPid && infoFd ? pidFromInfo(infoFd) : Promise.resolve(proc.pid);
  pid.catch(() => {});
  /** The process that runs the program: under bubblewrap, not the runner's child (see kill). */
  let program: ProcessHandle | undefined;
  let killedByRunner = false;
  const killGroup = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  /**
   * The program's own process first: it is pid 1 of its namespace, so every process in it goes
   * too, and bubblewrap, seeing its child end, exits and is reaped by Bun. Killing bubblewrap
   * first would orphan it (a zombie under a container's pid 1) and rely on its parent-death
   * signal, which a program could clear.
   */
  const kill = () => {
    killedByRunner = true;
    if (program) program.kill();
    else killGroup();
  };

  /**
   * What one worker said on standard error: "ready", then its final word, then (from the main
   * thread) "ended". Lines come in that order on the one stream, so a new "ready" starts the
   * next worker's record.
   */
  type Heard = {
    final: PromiseWithResolvers<FinalMessage>;
    ended: PromiseWithResolvers<number>;
    endedCode?: number;
    lastWord?: FinalMessage;
    finalClipped: boolean;
    diagnostics: string;
  };
  const hearing = (): Heard => ({
    final: Promise.withResolvers<FinalMessage>(),
    ended: Promise.withResolvers<number>(),
    finalClipped: false,
    diagnostics: "",
  });
  let worker = hearing();
  let admission: Admission | undefined;
  /**
   * In a reusable sandbox, the thread that runs the waiting worker's JavaScript, watched for CPU
   * during its run (a single-use sandbox runs its program on its main thread).
   */
  let workerTid: number | undefined;
  let findWorkerThread = (): number | undefined => undefined;
  let onFirstReady: (message: ControlMessage & { t: "ready" }) => void = () => {};
  let onNextReady: (() => void) | undefined;
  const control = readLines(
    proc.stderr,
    (line, clipped) => {
      const message = parseControlLine(line, clipped);
      if (message?.t === "ready") {
        worker = hearing();
        if (admission) onNextReady?.();
        else onFirstReady(message);
      } else if (message?.t === "ended") {
        worker.endedCode = message.code;
        worker.ended.resolve(message.code);
      } else if (message) {
        worker.lastWord = message;
        worker.finalClipped = clipped;
        worker.final.resolve(message);
      } else if (worker.diagnostics.length < MAX_DIAGNOSTICS) worker.diagnostics += `${line}\n`;
    },
    { maxLineChars: CONTROL_LINE_CHARS, maxBytes: CONTROL_BYTES, onOverflow: kill },
  );
  const output = readOutput(proc.stdout);
  const exitedAndDrained = Promise.all([proc.exited, output.closed, control.done]).then(() => {});

  const ready = new Promise<void>((resolve, reject) => {
    onFirstReady = (message) => {
      pid.then((sandboxPid) => {
        const admitted = admit(spec, message, sandboxPid);
        if (typeof admitted === "string") return reject(new Error(admitted));
        admission = admitted;
        if (reportsPid) program = holdProcess(sandboxPid);
        if (spec.reuse) {
          findWorkerThread = workerThreadFinder(sandboxPid);
          workerTid = findWorkerThread();
        }
        resolve();
      }, reject);
    };
    proc.exited.then(() =>
      reject(new Error(`sandbox exited before it was ready: ${worker.diagnostics.slice(0, 500)}`)),
    );
  });
  // A rejection nobody awaited yet (the pool awaits it) must not crash the runner.
  ready.catch(() => {});

  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    kill();
    // bubblewrap exits once its child is gone; the group kill is the backstop.
    await Promise.race([proc.exited, Bun.sleep(KILL_GRACE_MS)]);
    killGroup();
    await proc.exited;
    program?.release();
    rmSync(workDir, { recursive: true, force: true });
  };

  let runs = 0;
  let lastRun: { heard: Heard; clean: boolean } | undefined;
  const run = async (js: string, { timeoutMs, maxOutputBytes }: RunOptions): Promise<Outcome> => {
    runs++;
    const current = worker;
    try {
      writeFileSync(join(workDir, PROGRAM_FILE), js, { mode: 0o600 });
    } catch (error) {
      throw new SandboxFolderGoneError(workDir, error);
    }
    const runOutput = output.begin(maxOutputBytes, kill);
    control.restartCount();
    const clock = { timedOut: false };
    let demoted = false;
    const started = performance.now();
    proc.stdin.write(GO_LINE);
    proc.stdin.flush();
    const stopWatching = watchCpu(admission?.pid ?? proc.pid, DEMOTE_AFTER_CPU_MS, {
      tid: workerTid,
      onDemoted: () => (demoted = true),
    });
    let onDeadline = () => {};
    const deadline = new Promise<void>((resolve) => (onDeadline = resolve));
    const timer = setTimeout(() => {
      clock.timedOut = true;
      kill();
      // Answered even if the streams stay open or the process lingers: the slot is freed.
      setTimeout(onDeadline, KILL_GRACE_MS);
    }, timeoutMs);
    // The worker ended. With a counted final word, the run ends once that much output is read
    // (the fast path below, usually first). Without one (an error not reported in full; a crash
    // of the harness itself; no lockdown), the process is ended too, so every byte it wrote is
    // read, and the sandbox is not used again.
    let endedCode: number | null = null;
    const workerEnded = current.ended.promise.then((code) => {
      const word = current.lastWord;
      if (word?.bytes !== undefined) return runOutput.reached(word.bytes);
      if (!word) endedCode = code;
      kill();
      return exitedAndDrained;
    });
    await Promise.race([
      exitedAndDrained,
      deadline,
      workerEnded,
      // The fast path: the child's last word says how much it wrote; once that much is read,
      // the run is over, and the process is killed or given the next run rather than waited for.
      current.final.promise.then((message) =>
        message.bytes === undefined ? exitedAndDrained : runOutput.reached(message.bytes),
      ),
    ]);
    const durationMs = performance.now() - started;
    clearTimeout(timer);
    stopWatching();
    const final = current.lastWord;
    output.end(final?.bytes);
    const clean =
      !killedByRunner &&
      !demoted &&
      (final?.t === "done" || final?.t === "error") &&
      !current.finalClipped &&
      final.bytes === runOutput.received() &&
      current.diagnostics === "" &&
      output.stray() === 0;
    lastRun = { heard: current, clean };
    return {
      output: runOutput.text(),
      truncated: runOutput.truncated(),
      timedOut: clock.timedOut && !runOutput.truncated(),
      durationMs,
      final,
      exitCode: endedCode ?? proc.exitCode,
      signal: endedCode === null && proc.signalCode !== null ? String(proc.signalCode) : null,
      diagnostics: current.diagnostics,
      killedByRunner: endedCode === null && killedByRunner,
      finalClipped: current.finalClipped,
      clean,
    };
  };

  const rearm = async (waitMs: number): Promise<boolean> => {
    const previous = lastRun;
    if (!previous?.clean || !admission || disposed) return false;
    // The next worker may have said "ready" already (a new record), else it is waited for.
    const readyAgain =
      worker !== previous.heard ||
      (await new Promise<boolean>((resolve) => {
        let settled = false;
        const settle = (ok: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          onNextReady = undefined;
          resolve(ok);
        };
        const timer = setTimeout(() => settle(false), waitMs);
        onNextReady = () => settle(true);
        void proc.exited.then(() => settle(false));
      }));
    // "ended" comes before the next "ready" on the same stream: it has been heard by now.
    const { endedCode, diagnostics } = previous.heard;
    if (!readyAgain || endedCode === undefined || !REUSABLE_EXITS.has(endedCode)) return false;
    if (diagnostics !== "" || output.stray() > 0 || !alive()) return false;
    if (readmit(admission) !== undefined) return false;
    workerTid = findWorkerThread();
    return true;
  };

  const alive = () => proc.exitCode === null && !disposed;
  return {
    id,
    workDir,
    reusable: spec.reuse,
    ready,
    runs: () => runs,
    alive,
    run,
    rearm,
    dispose,
  };
}
