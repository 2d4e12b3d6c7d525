/**
 * The sandbox process. Started ahead of time by the pool, it restricts itself (limits, seccomp,
 * lockdown), says "ready" and waits. The parent then writes the program to a file and closes
 * standard input; the child imports the file and ends when its event loop is empty (or the
 * parent kills it). Standard output is the program's console; standard error carries one JSON
 * message per line for the parent (see ControlMessage in ../protocol.ts).
 */
import type { ChildConfig } from "../protocol.ts";
import { sandboxConsole } from "./console.ts";
import { applyLimits, applySeccomp } from "./kernel.ts";
import { waitForEof, writeAll } from "./libc.ts";
import { lockdown } from "./lockdown.ts";

// Everything the harness needs after the lockdown is taken now, before the program can touch it.
const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const exit = process.exit.bind(process);
const on = process.on.bind(process);
const stringify = JSON.stringify;
const inspect = Bun.inspect;
const global = globalThis;
const INPUT_FD = 0;
const CONTROL_FD = 2;
const OUTPUT_FD = 1;
const MAX_TEXT = 4096;
/**
 * Bytes of program output written so far. Every final message carries it, so the parent can
 * answer as soon as it has read that much, without waiting for this process to exit.
 */
let outputBytes = 0;
/** Without the lockdown the program writes through Bun's console, which this does not count. */
const countedBytes = () => (config.lockdown ? outputBytes : undefined);

/** One control line. Null-prototype objects: a polluted Object.prototype.toJSON cannot reach it. */
function send(message: Record<string, unknown>): void {
  try {
    writeAll(CONTROL_FD, `${stringify(message)}\n`);
  } catch {
    // The parent is gone or the pipe is closed: nothing left to tell.
  }
}

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** Name and message of anything thrown, without trusting it: getters may throw or lie. */
function describe(thrown: unknown): { name: string; message: string } {
  if ((typeof thrown !== "object" && typeof thrown !== "function") || thrown === null) {
    return { name: "Error", message: clip(String(thrown)) };
  }
  let name = "Error";
  let message = "";
  try {
    const value = Reflect.get(thrown, "name");
    if (typeof value === "string" && value) name = value;
  } catch {}
  try {
    const value = Reflect.get(thrown, "message");
    message = typeof value === "string" ? value : String(value ?? "");
  } catch {}
  return { name: clip(name), message: clip(message) };
}

function fail(thrown: unknown): never {
  send({ __proto__: null, t: "error", ...describe(thrown), bytes: countedBytes() });
  return exit(1);
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

const refusedLimits = config.limits ? applyLimits(config.limits) : [];
let seccomp = "off";
if (config.seccomp) {
  try {
    applySeccomp(process.pid);
    seccomp = "on";
  } catch (error) {
    seccomp = `failed: ${describe(error).message}`;
  }
}

if (config.lockdown) {
  const write = (text: string) => {
    outputBytes += writeAll(OUTPUT_FD, text);
  };
  Object.defineProperty(global, "console", {
    value: sandboxConsole(write, inspect),
    writable: false,
    configurable: false,
  });
  lockdown(global, blocked);
}
send({ __proto__: null, t: "ready", seccomp, refusedLimits });

// Standard input closing is the signal to start. Waiting blocks this thread, which has nothing
// else to do. The import is not awaited at the top level: Bun never exits while its entry
// module awaits something that never settles, whereas such a program should simply end.
waitForEof(INPUT_FD);
import(config.entry).catch(fail);
