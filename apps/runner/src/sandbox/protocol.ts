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
  | { t: "error"; name: string; message?: string; bytes?: number }
  | { t: "blocked"; capability: string; bytes?: number }
  | { t: "done"; bytes?: number };

export type FinalMessage = Exclude<ControlMessage, { t: "ready" }>;

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
