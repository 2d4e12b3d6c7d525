/**
 * One single-use sandbox process: started ahead of time, it runs exactly one program and is
 * then killed (with its whole process group) and its private folder removed.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INFO_FD, PROGRAM_FILE, type SandboxSpec, sandboxCommand } from "./command.ts";
import { holdProcess, type ProcessHandle, trackSpawned, watchCpu } from "./processes.ts";
import { type ControlMessage, type FinalMessage, parseControlLine } from "./protocol.ts";
import { admit, pidFromInfo } from "./readiness.ts";
import { collectOutput, readLines } from "./streams.ts";

export type Outcome = {
  /** Console output, at most `maxOutputBytes` bytes of it. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
  /** The child's last word: an error, a blocked capability, or done. */
  final: FinalMessage | undefined;
  /** Null while the process is still exiting (the run ended on the child's last word). */
  exitCode: number | null;
  signal: string | null;
  /** Whatever else the child wrote on standard error (a crash report), capped. */
  diagnostics: string;
  /** The runner killed the process (time limit, output cap, a stream overflowing). */
  killedByRunner: boolean;
  /** The final message was longer than CONTROL_LINE_CHARS and arrived cut. */
  finalClipped: boolean;
};

export type RunOptions = { timeoutMs: number; maxOutputBytes: number };

export type Sandbox = {
  readonly id: string;
  readonly workDir: string;
  /** Resolves once the child has restricted itself and waits; rejects if it cannot. */
  readonly ready: Promise<void>;
  alive(): boolean;
  run(js: string, opts: RunOptions): Promise<Outcome>;
  dispose(): Promise<void>;
};

const MAX_DIAGNOSTICS = 4096;
/**
 * Caps on standard error, enforced here whatever the program did to its own process: a control
 * line is cut at CONTROL_LINE_CHARS (an error's message included: the client sees at most
 * 8 KiB of it), and past CONTROL_BYTES in all the sandbox is killed.
 */
export const CONTROL_LINE_CHARS = 16 * 1024;
const CONTROL_BYTES = 256 * 1024;
/** After its time limit and the kill, a run is answered within this long whatever it does. */
const KILL_GRACE_MS = 500;
/** A run that has used this much CPU is demoted to SCHED_IDLE (processes.ts). */
const DEMOTE_AFTER_CPU_MS = 10;

export function startSandbox(spec: SandboxSpec, workRoot: string): Sandbox {
  const id = Bun.randomUUIDv7().slice(-12);
  const workDir = join(workRoot, id);
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const { cmd, env, cwd, reportsPid, seccompFile } = sandboxCommand(spec, workDir);
  // bubblewrap reads the filter from a descriptor (SECCOMP_FD), opened for each sandbox.
  const filter = seccompFile === null ? [] : [openSync(seccompFile, "r")];
  const spawn = () =>
    // Its own process group, so one kill reaches everything it started.
    Bun.spawn(cmd, {
      env,
      cwd,
      stdio: ["pipe", "pipe", "pipe", ...(reportsPid ? ["pipe" as const] : []), ...filter],
      detached: true,
    });
  let proc: ReturnType<typeof spawn>;
  try {
    proc = spawn();
  } finally {
    for (const fd of filter) closeSync(fd);
  }
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

  let diagnostics = "";
  let onReady: (message: ControlMessage & { t: "ready" }) => void = () => {};
  let onFinal: (message: FinalMessage) => void = () => {};
  const final = new Promise<FinalMessage>((resolve) => {
    onFinal = resolve;
  });
  let lastWord: FinalMessage | undefined;
  let finalClipped = false;
  const control = readLines(
    proc.stderr,
    (line, clipped) => {
      const message = parseControlLine(line, clipped);
      if (message?.t === "ready") onReady(message);
      else if (message) {
        lastWord = message;
        finalClipped = clipped;
        onFinal(message);
      } else if (diagnostics.length < MAX_DIAGNOSTICS) diagnostics += `${line}\n`;
    },
    { maxLineChars: CONTROL_LINE_CHARS, maxBytes: CONTROL_BYTES, onOverflow: kill },
  );

  const ready = new Promise<void>((resolve, reject) => {
    onReady = (message) => {
      pid.then((sandboxPid) => {
        const problem = admit(spec, message, sandboxPid);
        if (problem) return reject(new Error(problem));
        if (reportsPid) program = holdProcess(sandboxPid);
        resolve();
      }, reject);
    };
    proc.exited.then(() =>
      reject(new Error(`sandbox exited before it was ready: ${diagnostics.slice(0, 500)}`)),
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

  const run = async (js: string, { timeoutMs, maxOutputBytes }: RunOptions): Promise<Outcome> => {
    writeFileSync(join(workDir, PROGRAM_FILE), js, { mode: 0o600 });
    const output = collectOutput(proc.stdout, maxOutputBytes, kill);
    const clock = { timedOut: false };
    const started = performance.now();
    // Closing standard input is the child's signal to import the program.
    proc.stdin.end();
    const stopWatching = watchCpu(program?.pid ?? proc.pid, DEMOTE_AFTER_CPU_MS);
    let onDeadline = () => {};
    const deadline = new Promise<void>((resolve) => (onDeadline = resolve));
    const timer = setTimeout(() => {
      clock.timedOut = true;
      kill();
      // Answered even if the streams stay open or the process lingers: the slot is freed.
      setTimeout(onDeadline, KILL_GRACE_MS);
    }, timeoutMs);
    const exitedAndDrained = Promise.all([proc.exited, output.closed, control]).then(() => {});
    await Promise.race([
      exitedAndDrained,
      deadline,
      // The fast path: the child's last word says how much it wrote; once that much is read,
      // the run is over, and the process is killed rather than waited for.
      final.then((message) =>
        message.bytes === undefined ? exitedAndDrained : output.reached(message.bytes),
      ),
    ]);
    const durationMs = performance.now() - started;
    clearTimeout(timer);
    stopWatching();
    return {
      output: output.text(),
      truncated: output.truncated(),
      timedOut: clock.timedOut && !output.truncated(),
      durationMs,
      final: lastWord,
      exitCode: proc.exitCode,
      signal: proc.signalCode === null ? null : String(proc.signalCode),
      diagnostics,
      killedByRunner,
      finalClipped,
    };
  };

  return { id, workDir, ready, alive: () => proc.exitCode === null && !disposed, run, dispose };
}
