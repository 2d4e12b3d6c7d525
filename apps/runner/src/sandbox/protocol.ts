/** What the runner and a sandbox process tell each other (see child/main.ts). */

/**
 * The byte the child's wait for its program (prompt("") in child/main.ts) writes to standard
 * output before anything else, a space; the parent drops it.
 */
export const START_ECHO = 0x20;

/** The harness's seccomp installer (child/kernel.ts), built beside it, loaded only if needed. */
export const KERNEL_FILE = "kernel.js";

/** Bun's refusal to require() a module with top-level await: the child imports it instead. */
export const ASYNC_MODULE_ERROR = "require() async module";

/** Passed to the child as its one argument, as JSON. */
export type ChildConfig = {
  /** The program's file, as the child sees it. */
  entry: string;
  /** Install the seccomp filter itself: without bubblewrap, nobody else does. */
  seccomp: boolean;
  lockdown: boolean;
};

/**
 * One JSON line on the child's standard error. Final messages (error, blocked, done) carry the
 * bytes of output the harness wrote, when its console is the program's (lockdown on).
 */
export type ControlMessage =
  | { t: "ready"; seccomp: string }
  | { t: "error"; name: string; message: string; bytes?: number }
  | { t: "blocked"; capability: string; bytes?: number }
  | { t: "done"; bytes?: number };

export type FinalMessage = Exclude<ControlMessage, { t: "ready" }>;

export function parseControlLine(line: string): ControlMessage | undefined {
  if (!line.startsWith('{"t":')) return undefined;
  try {
    const message: unknown = JSON.parse(line);
    return typeof message === "object" && message !== null && "t" in message
      ? (message as ControlMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
