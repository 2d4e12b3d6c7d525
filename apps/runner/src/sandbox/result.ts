/**
 * What a sandbox's outcome means for the client: the RunResult of spec 2.4, with `error` as
 * "Name: message" and no host path anywhere in it.
 */
import type { RunResult } from "@platform/contracts";
import { blockedMessage } from "./child/blocked.ts";
import type { Outcome } from "./sandbox.ts";

export const TRUNCATION_MARKER = "\n[output truncated: 64 KiB limit reached]";

export type ResultContext = {
  timeoutMs: number;
  memoryMb: number;
  maxOutputBytes: number;
  paths: [string, string][];
};

export function scrubPaths(text: string, paths: [string, string][]): string {
  let scrubbed = text;
  for (const [path, shown] of paths) if (path) scrubbed = scrubbed.replaceAll(path, shown);
  return scrubbed;
}

/** The longest prefix of `text` that fits `maxBytes` of UTF-8 without splitting a character. */
export function clipUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.byteLength <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

const SIGNAL_OF_CODE: Record<number, string> = {
  134: "SIGABRT",
  135: "SIGBUS",
  137: "SIGKILL",
  139: "SIGSEGV",
  152: "SIGXCPU",
  153: "SIGXFSZ",
};

/** bubblewrap reports a child killed by a signal as exit code 128 + signal. */
function signalOf(outcome: Outcome): string | null {
  if (outcome.signal) return outcome.signal;
  return outcome.exitCode === null ? null : (SIGNAL_OF_CODE[outcome.exitCode] ?? null);
}

function errorOf(
  outcome: Outcome,
  context: ResultContext,
): { error: string | null; timedOut: boolean } {
  if (outcome.timedOut) {
    return {
      error: `TimeoutError: the run exceeded its ${context.timeoutMs} ms time limit`,
      timedOut: true,
    };
  }
  if (outcome.truncated) {
    return {
      error: `OutputLimitError: the output exceeded ${context.maxOutputBytes} bytes; the run was stopped`,
      timedOut: false,
    };
  }
  const final = outcome.final;
  if (final?.t === "blocked") {
    return { error: `SecurityError: ${blockedMessage(final.capability)}`, timedOut: false };
  }
  if (final?.t === "error") return { error: `${final.name}: ${final.message}`, timedOut: false };
  if (final?.t === "done") return { error: null, timedOut: false };
  const signal = signalOf(outcome);
  if (signal === "SIGXCPU") {
    return { error: "TimeoutError: the run used up its CPU time limit", timedOut: true };
  }
  if (/MemoryExhaustion|out of memory/i.test(outcome.diagnostics)) {
    return {
      error: `RangeError: Out of memory (the sandbox allows ${context.memoryMb} MiB)`,
      timedOut: false,
    };
  }
  const how = signal ? `was killed by ${signal}` : `exited with code ${outcome.exitCode}`;
  return { error: `RuntimeError: the sandbox process ${how}`, timedOut: false };
}

export function toRunResult(outcome: Outcome, context: ResultContext): RunResult {
  const { error, timedOut } = errorOf(outcome, context);
  const blocked = outcome.final?.t === "blocked" && !outcome.timedOut && !outcome.truncated;
  let output = blocked ? "" : scrubPaths(outcome.output, context.paths);
  if (outcome.truncated) {
    output =
      clipUtf8(output, context.maxOutputBytes - TRUNCATION_MARKER.length) + TRUNCATION_MARKER;
  }
  return {
    output,
    error: error === null ? null : scrubPaths(error, context.paths),
    executionTime: Math.round(outcome.durationMs * 1000) / 1000,
    timedOut,
  };
}
