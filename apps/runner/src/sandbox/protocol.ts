/** What the runner and a sandbox process tell each other (see child/main.ts). */
import type { KernelLimits } from "./child/kernel.ts";

export type { KernelLimits };

/** Passed to the child as its one argument, as JSON. */
export type ChildConfig = {
  /** The program's file, as the child sees it. */
  entry: string;
  limits: KernelLimits | null;
  seccomp: boolean;
  lockdown: boolean;
};

/**
 * One JSON line on the child's standard error. Final messages (error, blocked, done) carry the
 * bytes of output the harness wrote, when its console is the program's (lockdown on).
 */
export type ControlMessage =
  | { t: "ready"; seccomp: string; refusedLimits: string[] }
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
