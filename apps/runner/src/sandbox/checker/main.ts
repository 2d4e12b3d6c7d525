/**
 * A checker process: transpiles and checks submitted programs (static-check.ts) one at a time,
 * outside the runner's own process. A program built to explode at compile time (enum members
 * folded into each other double the output per member) then only exhausts this process's
 * memory limit or time, set by the runner (checker/pool.ts), which replaces it. Requests come as
 * JSON lines on standard input; each answer is one JSON line on standard output. Macros are off
 * (`--no-macros` and in the transpiler's options): nothing in a program runs here.
 */
import { installSeccomp } from "../child/kernel.ts";
import { checkProgram, type StaticVerdict, transpileOnly } from "../static-check.ts";
import { CHECKER_READY, type CheckRequest, MAX_JS_BYTES } from "./protocol.ts";

const output = Bun.stdout.writer();
const reply = (line: string) => {
  output.write(`${line}\n`);
  output.flush();
};

function verdictOf(request: CheckRequest): StaticVerdict {
  const verdict = request.static ? checkProgram(request.code) : transpileOnly(request.code);
  if (verdict.ok && Buffer.byteLength(verdict.js) > MAX_JS_BYTES) {
    return {
      ok: false,
      name: "RangeError",
      message: `the program compiles to more than ${MAX_JS_BYTES / 1024} KiB of JavaScript`,
      blocked: [],
    };
  }
  return verdict;
}

// The sandboxes' seccomp filter, when that layer is on: no process, socket or escape hatch for a
// program that found a way to run code in the transpiler or the parser.
if (process.argv[2] === "--seccomp") installSeccomp(process.pid);
reply(CHECKER_READY);
for await (const line of console) {
  if (!line) continue;
  const request = JSON.parse(line) as CheckRequest;
  reply(JSON.stringify({ id: request.id, verdict: verdictOf(request) }));
}
