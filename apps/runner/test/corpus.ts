/**
 * The escape corpus: programs that try to get out of the sandbox. `expect` is what the full
 * runner answers (every layer on); whatever it answers, escape.test.ts checks that nothing got
 * out: no connection, no host file read or written, no secret printed, no process left.
 */
export type Witnesses = { port: number; marker: string; forbidden: string; secretName: string };

export type Payload = {
  name: string;
  code: (w: Witnesses) => string;
  /**
   * security: a SecurityError; error: any other error; timeout; stopped: a timeout or another
   * limit, whichever comes first; clean: ran and ended.
   */
  expect: "security" | "error" | "timeout" | "stopped" | "clean";
  timeout?: number;
};

/** An enum whose members double each: 30 of them are a gigabyte once folded at compile time. */
const enumDoubling = (keyword: string, twice = (m: string) => `${m} + ${m}`) => {
  const members = Array.from({ length: 29 }, (_, i) => `M${i + 1} = ${twice(`M${i}`)}`);
  return `${keyword} E { M0 = "ab", ${members.join(", ")} }\nconsole.log(E.M29.length)`;
};
/** A raw system call through bun:ffi: import and dlopen, each stopped by some layer. */
const ffiSyscall = `import { dlopen, FFIType } from "bun:ffi";
const { symbols } = dlopen("libc.so.6", { syscall: { args: [FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64], returns: FFIType.i64 } });
const syscall = (nr, a = 0, b = 0, c = 0) => Number(symbols.syscall(nr, a, b, c));`;
const sleepForever = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);";

const url = (w: Witnesses) => JSON.stringify(`http://127.0.0.1:${w.port}/`);
const path = (p: string) => JSON.stringify(p);

export const CORPUS: Payload[] = [
  // Constructor chains
  {
    name: "array constructor chain",
    expect: "security",
    code: () => `[].constructor.constructor("return 1")()`,
  },
  {
    name: "async function constructor",
    expect: "security",
    code: () => `(async function () {}).constructor("return 1")()`,
  },
  {
    name: "generator constructor",
    expect: "security",
    code: () => `(function* () {}).constructor("yield 1")().next()`,
  },
  {
    name: "async generator constructor",
    expect: "security",
    code: () => `(async function* () {}).constructor("yield 1")`,
  },
  {
    name: "prototype of a function",
    expect: "security",
    code: () => `Object.getPrototypeOf(function () {}).constructor("return 1")()`,
  },
  {
    name: "Reflect.construct on the constructor",
    expect: "security",
    code: () => `Reflect.construct((() => {}).constructor, ["return 1"])`,
  },
  {
    name: "tagged template on the constructor",
    expect: "security",
    code: () => "[].constructor.constructor`return 1`",
  },
  // Computed and unicode-escaped names
  {
    name: "computed constructor name",
    expect: "security",
    code: () => `({})["constr" + "uctor"]["constr" + "uctor"]("return 1")()`,
  },
  { name: "unicode-escaped fetch", expect: "security", code: (w) => `\\u0066etch(${url(w)})` },
  {
    name: "braced unicode-escaped process",
    expect: "security",
    code: () => `console.log(\\u{70}rocess.env)`,
  },
  {
    name: "escaped globalThis and computed member",
    expect: "security",
    code: (w) => `const g = \\u0067lobalThis; g["fe" + "tch"](${url(w)})`,
  },
  { name: "self alias", expect: "security", code: (w) => `self.fetch(${url(w)})` },
  // New realms and workers
  {
    name: "ShadowRealm evaluate",
    expect: "security",
    code: () => `new ShadowRealm().evaluate("1")`,
  },
  {
    name: "blob worker",
    expect: "security",
    code: () => `new Worker(URL.createObjectURL(new Blob(["postMessage(1)"])))`,
  },
  {
    name: "data: worker",
    expect: "security",
    code: () => `new Worker("data:text/javascript,postMessage(1)")`,
  },
  { name: "eval", expect: "security", code: () => `eval("1 + 1")` },
  // Dynamic import
  {
    name: "dynamic import of child_process",
    expect: "security",
    code: () => `const cp = await import("node:child_process"); cp.execSync("id")`,
  },
  {
    name: "import of a computed specifier",
    expect: "security",
    code: () => `const m = "node:" + "fs"; await import(m)`,
  },
  {
    name: "data: import",
    expect: "security",
    code: () => `await import("data:text/javascript,export default 1")`,
  },
  { name: "import.meta.require", expect: "security", code: () => `import.meta.require("node:fs")` },
  {
    name: "static import",
    expect: "security",
    code: (w) =>
      `import { readFileSync } from "node:fs"; console.log(readFileSync(${path(w.marker)}, "utf8"))`,
  },
  {
    name: "require",
    expect: "security",
    code: (w) => `require("node:fs").writeFileSync(${path(w.forbidden)}, "x")`,
  },
  // Bun internals
  { name: "Bun.fetch", expect: "security", code: (w) => `await Bun.fetch(${url(w)})` },
  { name: "Bun.dns", expect: "security", code: () => `await Bun.dns.lookup("localhost")` },
  { name: "Bun.ModuleGraph", expect: "security", code: () => `console.log(Bun.ModuleGraph)` },
  { name: "Bun.WebView", expect: "security", code: () => `new Bun.WebView()` },
  {
    name: "Bun.env secret",
    expect: "security",
    code: (w) => `console.log(Bun.env.${w.secretName})`,
  },
  {
    name: "Bun.file host file",
    expect: "security",
    code: (w) => `console.log(await Bun.file(${path(w.marker)}).text())`,
  },
  {
    name: "Bun.write",
    expect: "security",
    code: (w) => `await Bun.write(${path(w.forbidden)}, "x")`,
  },
  {
    name: "Bun.spawn",
    expect: "security",
    code: (w) => `Bun.spawn(["sh", "-c", "touch ${w.forbidden}"])`,
  },
  { name: "Bun shell", expect: "security", code: (w) => `await Bun.$\`touch ${w.forbidden}\`` },
  {
    name: "Bun.connect",
    expect: "security",
    code: (w) =>
      `await Bun.connect({ hostname: "127.0.0.1", port: ${w.port}, socket: { data() {} } })`,
  },
  { name: "Bun.plugin", expect: "security", code: () => `Bun.plugin({ name: "x", setup() {} })` },
  {
    name: "Bun.SQL on a host file",
    expect: "security",
    code: (w) => `new Bun.SQL("sqlite://" + ${path(w.marker)})`,
  },
  // Stack-trace tricks
  {
    name: "prepareStackTrace call sites",
    expect: "error",
    code: () =>
      `Error.prepareStackTrace = (e, sites) => sites.map((s) => s.getThis()); console.log(new Error().stack)`,
  },
  {
    name: "defineProperty on prepareStackTrace",
    expect: "error",
    code: () =>
      `Object.defineProperty(Error, "prepareStackTrace", { value: (e, s) => s }); new Error().stack`,
  },
  // Prototype pollution of the harness
  {
    name: "polluted toJSON and JSON.stringify",
    expect: "error",
    code: () =>
      `Object.prototype.toJSON = () => ({ t: "done" }); JSON.stringify = () => '{"t":"done"}'; throw new Error("still reported")`,
  },
  {
    name: "polluted string and array methods",
    expect: "error",
    code: () =>
      `String.prototype.slice = () => ""; Array.prototype.join = () => ""; String.prototype.replaceAll = () => ""; throw new Error("still reported")`,
  },
  {
    name: "thrown object with a throwing getter",
    expect: "error",
    code: () => `throw { get name() { throw new Error("gotcha"); }, message: "still reported" }`,
  },
  {
    name: "polluted Object.prototype getter",
    expect: "clean",
    code: () =>
      `Object.defineProperty(Object.prototype, "process", { get() { console.log(typeof this); return 1; }, configurable: true }); console.log("polluted")`,
  },
  // The network
  { name: "fetch to the host listener", expect: "security", code: (w) => `await fetch(${url(w)})` },
  {
    name: "WebSocket to the host listener",
    expect: "security",
    code: (w) => `new WebSocket("ws://127.0.0.1:${w.port}/")`,
  },
  // Host files, environment, processes
  {
    name: "node fs through process",
    expect: "security",
    code: (w) =>
      `console.log(process.getBuiltinModule("node:fs").readFileSync(${path(w.marker)}, "utf8"))`,
  },
  {
    name: "environment dump",
    expect: "security",
    code: () => `console.log(JSON.stringify(process.env))`,
  },
  { name: "process binding", expect: "security", code: () => `process.binding("spawn_sync")` },
  {
    name: "kill the runner",
    expect: "security",
    code: () => `process.kill(process.ppid, "SIGKILL")`,
  },
  // Bombs, loops, things that never end
  { name: "fork bomb", expect: "security", code: () => `for (;;) Bun.spawn([process.execPath])` },
  {
    name: "memory bomb",
    expect: "error",
    timeout: 3_000,
    code: () => `const a = []; for (;;) a.push(new Array(1e6).fill(1.5))`,
  },
  { name: "string doubling bomb", expect: "error", code: () => `let s = "x"; for (;;) s += s` },
  { name: "output bomb", expect: "error", code: () => `for (;;) console.log("x".repeat(10000))` },
  { name: "busy loop", expect: "timeout", timeout: 500, code: () => `for (;;) {}` },
  {
    name: "microtask loop",
    expect: "stopped",
    timeout: 500,
    code: () => `const spin = () => Promise.resolve().then(spin); spin()`,
  },
  {
    name: "Atomics.wait forever",
    expect: "timeout",
    timeout: 500,
    code: () => `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)`,
  },
  {
    name: "timer kept alive",
    expect: "timeout",
    timeout: 500,
    code: () => `setInterval(() => {}, 10)`,
  },
  // Hurting the runner rather than escaping it (each class of issue 11)
  { name: "enum doubling at compile time", expect: "error", code: () => enumDoubling("enum") },
  {
    name: "const enum doubling at compile time",
    expect: "error",
    code: () => enumDoubling("const enum"),
  },
  {
    name: "template-literal enum doubling",
    expect: "error",
    code: () => enumDoubling("enum", (m) => `\`\${${m}}\${${m}}\``),
  },
  {
    name: "huge error with slice replaced",
    expect: "error",
    code: () =>
      `String.prototype.slice = function () { return this; }; throw new Error("x".repeat(300000))`,
  },
  {
    name: "error too big for memory",
    expect: "error",
    code: () =>
      `String.prototype.slice = function () { return this; }; throw new Error("x".repeat(8e6) + "y".repeat(8e6))`,
  },
  {
    name: "standard error flood",
    expect: "error",
    code: () => `for (;;) console.error("e".repeat(5000))`,
  },
  {
    name: "clear the parent-death signal, then sleep",
    expect: "security",
    timeout: 500,
    code: () => `${ffiSyscall} syscall(157, 1, 0); ${sleepForever}`,
  },
  {
    name: "signal another pid with rt_sigqueueinfo",
    expect: "security",
    code: () => `${ffiSyscall} console.log(syscall(129, 1, 9, 0))`,
  },
  {
    name: "new mount API and memory secrets (listmount, open_tree_attr, memfd_secret)",
    expect: "security",
    code: () =>
      `${ffiSyscall} console.log([458, 467, 447, 312, 154].map((nr) => syscall(nr, 0, 0)))`,
  },
  {
    name: "list the host's programs",
    expect: "security",
    code: () => `import { readdirSync } from "node:fs"; console.log(readdirSync("/usr/bin"))`,
  },
  {
    name: "promise that never settles",
    expect: "clean",
    code: () => `await new Promise(() => {}); console.log("unreachable")`,
  },
];
