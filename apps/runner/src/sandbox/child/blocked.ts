/**
 * What submitted code may not name or reach, shared by the static check (parent) and the runtime
 * lockdown (child). Plain data, no imports: the child loads this file too.
 */

/** Globals that are capabilities (network, code from strings, new realms, threads, the host). */
export const BLOCKED_CALLABLE_GLOBALS = [
  "fetch",
  "WebSocket",
  "EventSource",
  "XMLHttpRequest",
  "Worker",
  "SharedWorker",
  "ShadowRealm",
  "eval",
  "Function",
  "alert",
  "confirm",
  "prompt",
] as const;

/** Globals that hand out the host (process, Bun) or the global object itself, under any alias. */
export const BLOCKED_VALUE_GLOBALS = [
  "process",
  "Bun",
  "globalThis",
  "global",
  "self",
  "window",
  "frames",
  "parent",
  "top",
  "addEventListener",
  "removeEventListener",
  "dispatchEvent",
  "onerror",
  "onmessage",
  "postMessage",
  "Loader",
] as const;

/** CommonJS and module-system names: importing is blocked in every form. */
export const BLOCKED_MODULE_NAMES = [
  "require",
  "module",
  "exports",
  "__dirname",
  "__filename",
] as const;

export const BLOCKED_NAMES: ReadonlySet<string> = new Set([
  ...BLOCKED_CALLABLE_GLOBALS,
  ...BLOCKED_VALUE_GLOBALS,
  ...BLOCKED_MODULE_NAMES,
]);

/**
 * Members of `Bun` a program may keep: pure computations with no file, network, process or
 * module access. Every other member is replaced by a stub that reports a SecurityError, or,
 * where Bun makes the member read-only, left to the static check and the kernel.
 */
export const SAFE_BUN_MEMBERS: ReadonlySet<string> = new Set([
  "version",
  "revision",
  "nanoseconds",
  "sleep",
  "deepEquals",
  "deepMatch",
  "escapeHTML",
  "hash",
  "CryptoHasher",
  "MD4",
  "MD5",
  "SHA1",
  "SHA224",
  "SHA256",
  "SHA384",
  "SHA512",
  "SHA512_256",
  "randomUUIDv7",
  "randomUUIDv5",
  "stringWidth",
  "stripANSI",
  "isMainThread",
]);

export const blockedMessage = (name: string) => `'${name}' is not available in the sandbox`;
