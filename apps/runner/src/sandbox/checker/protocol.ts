/** What the runner and a checker process (checker/main.ts) tell each other, one JSON line each. */
import type { StaticVerdict } from "../static-check.ts";

/** The first line a checker writes: it is loaded and reads requests. */
export const CHECKER_READY = "ready";

export type CheckRequest = { id: number; code: string; static: boolean };
export type CheckReply = { id: number; verdict: StaticVerdict };

/**
 * The largest JavaScript a program may become. Source is at most 1000 characters; ordinary
 * TypeScript compiles to about as much, a few kilobytes with decorators or enums. Far past it is
 * a program built to explode at compile time (enum members folded into each other double the
 * output per member), and it is refused before anything is written to the sandbox's folder.
 */
export const MAX_JS_BYTES = 64 * 1024;
