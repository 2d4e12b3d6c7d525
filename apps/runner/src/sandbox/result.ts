/**
 * What a sandbox's outcome means for the client: the RunResult of spec 2.4, with `error` as
 * "Name: message" and no host path anywhere in it.
 */
import type { RunResult } from "@platform/contracts";
import { blockedMessage } from "./child/blocked.ts";
import type { Outcome } from "./sandbox.ts";

export const TRUNCATION_MARKER = "\n[output truncated: 64 KiB limit reached]";
/** `error` is at most this many bytes of UTF-8, marked when cut. */
export const ERROR_MAX_BYTES = 8 * 1024;
export const ERROR_TRUNCATION_MARKER = " … [error truncated: 8 KiB limit]";

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
  132: "SIGILL",
  133: "SIGTRAP",
  134: "SIGABRT",
  135: "SIGBUS",
  137: "SIGKILL",
  139: "SIGSEGV",
  152: "SIGXCPU",
  153: "SIGXFSZ",
};

/**
 * How the engine stops when an allocation fails (under the address-space limit, mmap fails):
 * JSC and Bun crash on purpose with one of these rather than run on without memory.
 */
const ENGINE_STOPS = new Set(["SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGSEGV"]);

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
  if (final?.t === "error") {
    return { error: `${final.name}: ${final.message ?? ""}`, timedOut: false };
  }
  if (final?.t === "done") return { error: null, timedOut: false };
  const signal = signalOf(outcome);
  if (signal === "SIGXCPU") {
    return { error: "TimeoutError: the run used up its CPU time limit", timedOut: true };
  }
  // A SIGKILL the runner did not send is the kernel's out-of-memory killer.
  const outOfMemory =
    /MemoryExhaustion|out of memory/i.test(outcome.diagnostics) ||
    (signal !== null && ENGINE_STOPS.has(signal)) ||
    (signal === "SIGKILL" && !outcome.killedByRunner);
  if (outOfMemory) {
    const how = signal ? `; the engine stopped with ${signal}` : "";
    return {
      error: `RangeError: Out of memory: the program needed more than the sandbox allows (${context.memoryMb} MiB)${how}`,
      timedOut: false,
    };
  }
  const how = signal ? `was killed by ${signal}` : `exited with code ${outcome.exitCode}`;
  return { error: `RuntimeError: the sandbox process ${how}`, timedOut: false };
}

/** At most ERROR_MAX_BYTES, cut on a character boundary and marked. */
export function capError(error: string): string {
  if (Buffer.byteLength(error) <= ERROR_MAX_BYTES) return error;
  return (
    clipUtf8(error, ERROR_MAX_BYTES - Buffer.byteLength(ERROR_TRUNCATION_MARKER)) +
    ERROR_TRUNCATION_MARKER
  );
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
    error: error === null ? null : capError(scrubPaths(error, context.paths)),
    executionTime: Math.round(outcome.durationMs * 1000) / 1000,
    timedOut,
  };
}
