/** What the runner and a sandbox process tell each other (see child/main.ts, child/supervisor.ts). */

/**
 * The byte the harness's wait for its program (prompt("") in child/main.ts) writes to standard
 * output before the program's first byte, a space; the parent drops it.
 */
export const START_ECHO = 0x20;

/**
 * What the runner writes to standard input once the program is in its file: the waiting harness
 * loads it. prompt() takes an empty line for the end of input, so the line says something.
 */
export const GO_LINE = "go\n";

/**
 * The harness's exit code when standard input ended (the runner closed it or is gone): no run
 * will come, and a reusable sandbox ends instead of starting another worker.
 */
export const NO_MORE_RUNS = 75;

/**
 * Exit codes of a worker that ended on its own with its final word counted: done (0) and an
 * error it reported (1). Only after these does a reusable sandbox start another worker (any
 * other code ends the process), and only after these does the runner reuse it.
 */
export const REUSABLE_EXITS: ReadonlySet<number> = new Set([0, 1]);
/** A worker's exit code when its error could not be reported in full (no output count). */
export const UNREPORTED_ERROR = 2;

/**
 * The folder of the built harness that a sandbox sees (as /runner): the files below, and
 * nothing else of the runner's. The seccomp installer, the filter and the checker stay outside.
 */
export const SANDBOX_FILES_DIR = "sandbox";
/** A reusable sandbox's main thread (child/supervisor.ts): it runs main.js in a worker per run. */
export const SUPERVISOR_FILE = "supervisor.js";
/**
 * The harness's entry: a single-use sandbox's, and each worker's of a reusable one. A one-line
 * module that loads HARNESS_BUNDLE (Bun runs a CommonJS entry's exports through a check of its
 * own that reads globals the lockdown has blocked).
 */
export const HARNESS_FILE = "main.js";
/**
 * The harness itself (child/main.ts) as CommonJS, with JavaScriptCore's bytecode for it beside
 * it (HARNESS_BYTECODE_FILE): a sandbox loads it without parsing or compiling it.
 */
export const HARNESS_BUNDLE = "harness.js";
export const HARNESS_BYTECODE_FILE = `${HARNESS_BUNDLE}.jsc`;

/**
 * The harness's seccomp installer (child/kernel.ts), built beside the sandbox's files, not
 * among them: loaded only without bubblewrap (ChildConfig.seccomp), so never mounted.
 */
export const KERNEL_FILE = "kernel.js";

/** Bun's refusal to require() a module with top-level await: the child imports it instead. */
export const ASYNC_MODULE_ERROR = "require() async module";

/** Passed to the child as its one argument, as JSON. */
export type ChildConfig = {
  /** The program's file, as the child sees it. */
  entry: string;
  /**
   * Without bubblewrap the child installs the seccomp filter itself, with this file
   * (KERNEL_FILE, on the host); null when it must not (bubblewrap installs it, or it is off).
   * A path from the runner: the harness is bundled, and a bundle's import.meta.dir and
   * __dirname are the folder it was built from.
   */
  seccomp: string | null;
  lockdown: boolean;
  /**
   * A reusable sandbox (child/supervisor.ts runs each program in a worker of its own and starts
   * the next one when a worker ends cleanly); else the harness is the process and ends with it.
   */
  reuse: boolean;
};

/**
 * One JSON line on the child's standard error. The harness says `ready` once locked down and
 * waiting, then one final message (error, blocked, done), carrying the bytes of output it wrote
 * when its console is the program's (lockdown on). In a reusable sandbox the supervisor says
 * `ended` with the worker's exit code once the worker is gone (before the next one's `ready`).
 */
export type ControlMessage =
  | { t: "ready"; seccomp: string }
  | { t: "error"; name: string; message?: string; bytes?: number }
  | { t: "blocked"; capability: string; bytes?: number }
  | { t: "done"; bytes?: number }
  | { t: "ended"; code: number };

export type FinalMessage = Exclude<ControlMessage, { t: "ready" } | { t: "ended" }>;

/**
 * A control line, or undefined when the line is something else (a crash report). A final error
 * longer than the runner's line cap arrives cut (`clipped`): its fields before the message are
 * whole (the child writes them first) and the message is kept up to the cut.
 */
export function parseControlLine(line: string, clipped = false): ControlMessage | undefined {
  if (!line.startsWith('{"t":')) return undefined;
  try {
    const message: unknown = JSON.parse(clipped ? closeCutMessage(line) : line);
    return typeof message === "object" && message !== null && "t" in message
      ? (message as ControlMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `{"t":"error",...,"message":"abc` → `{"t":"error",...,"message":"abc"}`, escapes kept whole. */
function closeCutMessage(line: string): string {
  // A cut inside an escape sequence (`\`, `\u12`) leaves it incomplete: drop that part.
  const text = line.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "");
  const backslashes = /\\*$/.exec(text)?.[0].length ?? 0;
  return `${backslashes % 2 === 1 ? text.slice(0, -1) : text}"}`;
}
