import { RUN_CODE_MAX, RUN_TIMEOUT_MAX_MS } from "@platform/contracts/limits";

/** The playground's words (the site is in English; the portal has its own catalogues). */
export const PLAYGROUND_TEXT = {
  example: "Example",
  timeout: "Timeout (ms)",
  timeoutHelp: `A whole number from 1 to ${RUN_TIMEOUT_MAX_MS}.`,
  run: "Run",
  running: "Running…",
  wait: (s: number) => `Wait ${s} s`,
  count: (n: number, over: boolean) =>
    `${n} / ${RUN_CODE_MAX} characters${over ? " (too long to run)" : ""}`,
  keys: "Ctrl+Enter (⌘+Enter on a Mac) runs; Ctrl+Space completes; Tab leaves the editor. Drag the editor's corner to make it taller.",
  typesHeading: "Type errors",
  typesWaiting: "The type checker loads once the page has opened.",
  typesLoading: "Loading the TypeScript type checker…",
  typesChecking: "Checking types…",
  typesNone: "No type errors.",
  typesFailed:
    "The type checker could not start in this browser, so types are not checked here. Running still works.",
  typesCount: (n: number) => `${n} type ${n === 1 ? "error" : "errors"}. Running is still allowed.`,
  where: (line: number, column: number) => `Line ${line}, column ${column}`,
  share: "Share",
  shareLabel: "Link to this program",
  shareCopied: "Link copied. Anyone who opens it sees this program in the editor.",
  shareCopy: "Copy this link to share the program.",
  sharedLoaded: "Program loaded from the shared link.",
  sharedBroken:
    "That shared link could not be read (cut short or changed?), so the first example is shown.",
  outputHeading: "Output",
  errorHeading: "Error",
  noOutput: "The program printed nothing.",
  ranIn: (ms: string) => `Ran in ${ms} ms.`,
  notRun: "Not run: the sandbox refused the program before it started (see the error).",
  timedOutAfter: (ms: string) => `Stopped after ${ms} ms: it ran past its timeout.`,
  executionTime: "Execution time",
  timedOut: "Timed out",
  yes: "yes",
  no: "no",
  blocked: (what: string) =>
    `The program used ${what}, which the sandbox does not offer. Programs run without network access, files, environment variables, child processes or timers that outlive the run; they can compute and print with console.log, nothing more.`,
  resultEmpty: "Run the program to see what it prints.",
} as const;

/** What a blocked name gives a program, in words. */
const CAPABILITIES: Record<string, string> = {
  fetch: "the network (fetch)",
  WebSocket: "the network (WebSocket)",
  EventSource: "the network (EventSource)",
  XMLHttpRequest: "the network (XMLHttpRequest)",
  Worker: "threads (Worker)",
  SharedWorker: "threads (SharedWorker)",
  eval: "code from strings (eval)",
  Function: "code from strings (Function)",
  process: "the host process (process)",
  Bun: "Bun's host API",
  require: "modules (require)",
};

/** "SecurityError: 'fetch' is not available in the sandbox" → "the network (fetch)". */
export function blockedCapability(error: string | null): string | null {
  if (!error?.startsWith("SecurityError:")) return null;
  const names = [...error.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? "");
  const words = names.map((name) => CAPABILITIES[name] ?? `'${name}'`);
  return words.length > 0 ? words.join(", ") : "a capability";
}
