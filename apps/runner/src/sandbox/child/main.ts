/**
 * The sandbox harness: it runs one program. A single-use sandbox is this file as its process
 * (started ahead of time by the pool); a reusable sandbox runs it in a worker for each program
 * (supervisor.ts), where ending, by any path, ends the worker only. Either way it installs the
 * seccomp filter when it is the process and bubblewrap has not, locks the JavaScript runtime
 * down, says "ready" and waits for the runner's go on standard input (the runner sets the
 * resource limits meanwhile); then it loads the program from its file and ends when its event
 * loop is empty (or the runner kills the process). Standard output is the program's console;
 * standard error carries one JSON message per line for the runner (see ControlMessage in
 * ../protocol.ts).
 */
import {
  ASYNC_MODULE_ERROR,
  type ChildConfig,
  NO_MORE_RUNS,
  UNREPORTED_ERROR,
} from "../protocol.ts";
import { sandboxConsole } from "./console.ts";
import {
  byteLengthOf,
  promiseThen,
  reflectGet,
  sliceText,
  startsWith,
  stringify,
  toText,
} from "./intrinsics.ts";
import { lockdown } from "./lockdown.ts";

// Everything the harness needs after the lockdown is taken now, before the program can touch
// it; built-ins the program could replace come from intrinsics.ts.
const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
// In a worker, process.exit ends the worker, not the process.
const exit = process.exit.bind(process);
const on = process.on.bind(process);
const inspect = Bun.inspect;
const global = globalThis;
// Bun's own sinks on the standard streams: a write goes straight to the pipe (node:fs or
// process.stdout would cost each sandbox milliseconds of module loading).
const output = Bun.stdout.writer();
const control = Bun.stderr.writer();
const writeOutput = output.write.bind(output);
const encode = TextEncoder.prototype.encode.bind(new TextEncoder());
const flushOutput = output.flush.bind(output);
const writeControl = control.write.bind(control);
const flushControl = control.flush.bind(control);
// The program is loaded with require, not import(): an import() starts Bun's thread pool, about
// a millisecond of CPU per sandbox. A program with top-level await is then imported (see start).
// The global `require`, not import.meta.require: Bun builds no bytecode for a file that names
// the latter (harness.ts).
const requireFile = require;
const waitForInput = prompt;
const MAX_TEXT = 4096;
/**
 * Bytes of program output written so far. Every final message carries it, so the parent can
 * answer as soon as it has read that much, without waiting for this process to exit.
 */
let outputBytes = 0;
/** Without the lockdown the program writes through Bun's console, which this does not count. */
const countedBytes = () => (config.lockdown ? outputBytes : undefined);

/** One control line. Null-prototype objects: a polluted Object.prototype.toJSON cannot reach it. */
function send(message: Record<string, unknown>): boolean {
  try {
    writeControl(`${stringify(message)}\n`);
    flushControl();
    return true;
  } catch {
    // The parent is gone or the pipe is closed, or no memory was left to encode the message.
    return false;
  }
}

/** Written as it is when an error cannot be encoded: built now, while memory is there. */
const UNREPORTABLE = `${stringify({ t: "error", name: "RangeError", message: "Out of memory: the program's error could not be reported" })}\n`;

const clip = (text: string) => (text.length > MAX_TEXT ? `${sliceText(text, 0, MAX_TEXT)}…` : text);

/** Name and message of anything thrown, without trusting it: getters may throw or lie. */
function describe(thrown: unknown): { name: string; message: string } {
  if ((typeof thrown !== "object" && typeof thrown !== "function") || thrown === null) {
    return { name: "Error", message: clip(toText(thrown)) };
  }
  let name = "Error";
  let message = "";
  try {
    const value = reflectGet(thrown, "name");
    if (typeof value === "string" && value) name = value;
  } catch {}
  try {
    const value = reflectGet(thrown, "message");
    message = typeof value === "string" ? value : toText(value ?? "");
  } catch {}
  return { name: clip(name), message: clip(message) };
}

function fail(thrown: unknown): never {
  // The message last: a line the runner cuts at its cap keeps every other field whole.
  let sent = false;
  try {
    sent = send({ __proto__: null, t: "error", bytes: countedBytes(), ...describe(thrown) });
  } catch {}
  if (sent) return exit(1);
  try {
    writeControl(UNREPORTABLE);
    flushControl();
  } catch {}
  // No output count went with it: the process ends, so the runner reads to its end.
  return exit(UNREPORTED_ERROR);
}

function blocked(capability: string): never {
  send({ __proto__: null, t: "blocked", capability, bytes: countedBytes() });
  return exit(3);
}

on("uncaughtException", fail);
on("unhandledRejection", fail);
on("beforeExit", () => {
  send({ __proto__: null, t: "done", bytes: countedBytes() });
  exit(0);
});

// Resource limits are set by the parent, and the seccomp filter is installed by bubblewrap
// before Bun starts; only without bubblewrap is the filter the sandbox's own job: this file's
// as a single-use sandbox, the supervisor's in a reusable one (which says how it went).
let seccomp = process.argv[3] ?? "off";
if (config.seccomp) {
  try {
    const kernel: typeof import("./kernel.ts") = requireFile(config.seccomp);
    kernel.installSeccomp(process.pid);
    seccomp = "on";
  } catch (error) {
    seccomp = `failed: ${describe(error).message}`;
  }
}

if (config.lockdown) {
  const write = (text: string) => {
    const bytes = encode(text);
    writeOutput(bytes);
    flushOutput();
    outputBytes += byteLengthOf(bytes);
  };
  Object.defineProperty(global, "console", {
    value: sandboxConsole(write, inspect),
    writable: false,
    configurable: false,
  });
  lockdown(global, blocked);
}
send({ __proto__: null, t: "ready", seccomp });

/**
 * Waits for the runner's go (GO_LINE), its signal that the program is in place, then runs it.
 * prompt() is Bun's one synchronous read of standard input that needs no module loaded
 * (node:fs or bun:ffi cost a millisecond or more); it writes START_ECHO (one space) to standard
 * output first, which the parent drops. The runner sends one go per "ready", so no line is
 * ever left for the next worker.
 */
function start(): void {
  // Null: standard input ended, no program is coming.
  if (waitForInput("") === null) exit(NO_MORE_RUNS);
  try {
    requireFile(config.entry);
  } catch (error) {
    // Top-level await: require ran the program up to its first await and refused the rest,
    // which import() finishes (a program that merely throws such an error gets the same error
    // back from import(): a module is evaluated once). Not awaited: a program awaiting a promise
    // that never settles should simply end, as `bun file` does.
    const { name, message } = describe(error);
    if (name === "TypeError" && startsWith(message, ASYNC_MODULE_ERROR)) {
      promiseThen(import(config.entry), undefined, fail);
    } else fail(error);
  }
}
start();
