/**
 * One single-use sandbox process: started ahead of time, it runs exactly one program and is
 * then killed (with its whole process group) and its private folder removed.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROGRAM_FILE, type SandboxSpec, sandboxCommand } from "./command.ts";
import { type ControlMessage, type FinalMessage, parseControlLine } from "./protocol.ts";

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

export function startSandbox(spec: SandboxSpec, workRoot: string): Sandbox {
  const id = Bun.randomUUIDv7().slice(-12);
  const workDir = join(workRoot, id);
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const { cmd, env, cwd } = sandboxCommand(spec, workDir);
  // Its own process group, so one kill reaches everything it started.
  const proc = Bun.spawn(cmd, {
    env,
    cwd,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const killGroup = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };

  let diagnostics = "";
  let onReady: (message: ControlMessage & { t: "ready" }) => void = () => {};
  let onFinal: (message: FinalMessage) => void = () => {};
  const final = new Promise<FinalMessage>((resolve) => {
    onFinal = resolve;
  });
  let lastWord: FinalMessage | undefined;
  const control = readLines(proc.stderr, (line) => {
    const message = parseControlLine(line);
    if (message?.t === "ready") onReady(message);
    else if (message) {
      lastWord = message;
      onFinal(message);
    } else if (diagnostics.length < MAX_DIAGNOSTICS) diagnostics += `${line}\n`;
  });

  const ready = new Promise<void>((resolve, reject) => {
    onReady = (message) => {
      const problem = readinessProblem(spec, message);
      if (problem) reject(new Error(problem));
      else resolve();
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
    killGroup();
    await proc.exited;
    rmSync(workDir, { recursive: true, force: true });
  };

  const run = async (js: string, { timeoutMs, maxOutputBytes }: RunOptions): Promise<Outcome> => {
    writeFileSync(join(workDir, PROGRAM_FILE), js, { mode: 0o600 });
    const output = collectOutput(proc.stdout, maxOutputBytes, killGroup);
    const clock = { timedOut: false };
    const started = performance.now();
    // Closing standard input is the child's signal to import the program.
    proc.stdin.end();
    const timer = setTimeout(() => {
      clock.timedOut = true;
      killGroup();
    }, timeoutMs);
    const exitedAndDrained = Promise.all([proc.exited, output.closed, control]).then(() => {});
    await Promise.race([
      exitedAndDrained,
      // The fast path: the child's last word says how much it wrote; once that much is read,
      // the run is over, and the process is killed rather than waited for.
      final.then((message) =>
        message.bytes === undefined ? exitedAndDrained : output.reached(message.bytes),
      ),
    ]);
    const durationMs = performance.now() - started;
    clearTimeout(timer);
    return {
      output: output.text(),
      truncated: output.truncated(),
      timedOut: clock.timedOut && !output.truncated(),
      durationMs,
      final: lastWord,
      exitCode: proc.exitCode,
      signal: proc.signalCode === null ? null : String(proc.signalCode),
      diagnostics,
    };
  };

  return { id, workDir, ready, alive: () => proc.exitCode === null && !disposed, run, dispose };
}

/** A child that could not apply a layer it was asked for never runs a program. */
function readinessProblem(spec: SandboxSpec, ready: ControlMessage & { t: "ready" }) {
  if (spec.seccomp && ready.seccomp !== "on") return `seccomp filter not applied: ${ready.seccomp}`;
  if (spec.limits && ready.refusedLimits.length > 0) {
    return `resource limits refused: ${ready.refusedLimits.join(", ")}`;
  }
  return undefined;
}

async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n")) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  }
  if (pending) onLine(pending);
}

/** Reads a stream up to `max` bytes; past that, calls `onOverflow` and drops the rest. */
function collectOutput(stream: ReadableStream<Uint8Array>, max: number, onOverflow: () => void) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let wanted = Number.POSITIVE_INFINITY;
  let onReached = () => {};
  const closed = (async () => {
    for await (const chunk of stream) {
      if (truncated) continue;
      if (size + chunk.byteLength > max) {
        chunks.push(chunk.subarray(0, max - size));
        size = max;
        truncated = true;
        onOverflow();
      } else {
        chunks.push(chunk);
        size += chunk.byteLength;
      }
      if (size >= wanted) onReached();
    }
  })();
  return {
    closed,
    /** Resolves once `bytes` have been read (or the stream ended or overflowed). */
    reached(bytes: number): Promise<void> {
      if (size >= bytes || truncated) return Promise.resolve();
      wanted = bytes;
      return Promise.race([closed, new Promise<void>((resolve) => (onReached = resolve))]);
    },
    truncated: () => truncated,
    text: () => new TextDecoder().decode(Buffer.concat(chunks)),
  };
}
