/**
 * The runtime layer: after it runs, the blocked globals are stubs that end the run with a
 * SecurityError naming them, however they are reached (an alias, a computed name, a
 * constructor chain). What Bun will not let go (the `Bun` global and some of its members) is
 * frozen and neutered where it can be, and otherwise left to the static check and the kernel.
 *
 * Work done once per `Bun` member stays inline in its loop rather than in a helper: JSC compiles
 * a function once it has been called about 35 times (a loop only after about 500 iterations),
 * and compiling code that runs once costs every sandbox more CPU than it could save.
 */
import {
  BLOCKED_CALLABLE_GLOBALS,
  BLOCKED_MODULE_NAMES,
  BLOCKED_VALUE_GLOBALS,
  SAFE_BUN_MEMBERS,
} from "./blocked.ts";
import { weakMapGet } from "./intrinsics.ts";

/** Reports the capability and ends the process; never returns. */
export type OnBlocked = (capability: string) => never;

/** Attributes not named keep their current state, which Bun requires of its fixed members. */
const locked = (value: unknown): PropertyDescriptor => ({
  value,
  writable: false,
  configurable: false,
});

/**
 * Stands in for a blocked function: calling or constructing it reports. Its name and length stay
 * readable, so inspecting a value (which reads `constructor.name`) does not trip it.
 */
function stub(name: string, onBlocked: OnBlocked, displayName?: string): () => never {
  // A declaration, not an arrow: arrows cannot be constructed, and `new WebSocket()` must report.
  function blocked(): never {
    return onBlocked(name);
  }
  const shortName = displayName ?? name.slice(name.lastIndexOf(".") + 1);
  return Object.defineProperty(blocked, "name", { value: shortName });
}

/**
 * Tripwires stand in for blocked objects (Bun.stdin, Bun.env): a proxy of which any use at all
 * reports, reading or writing a property, asking for its keys or its prototype. One handler
 * serves them all; each trap names the capability its target stands for (`names`).
 */
function tripwireHandler(names: WeakMap<object, string>, onBlocked: OnBlocked) {
  // Trips once the program runs: the WeakMap's own get, not whatever WeakMap.prototype.get
  // has become (intrinsics.ts).
  const trip = (target: object) => onBlocked(weakMapGet(names, target) ?? "Bun");
  // Every trap there is, on an object without a prototype: a trap the handler lacked would be
  // looked up on Object.prototype, where the program could have planted one.
  const handler: ProxyHandler<object> = {
    __proto__: null,
    apply: trip,
    construct: trip,
    get: trip,
    set: trip,
    has: trip,
    defineProperty: trip,
    deleteProperty: trip,
    getOwnPropertyDescriptor: trip,
    getPrototypeOf: trip,
    setPrototypeOf: trip,
    ownKeys: trip,
    isExtensible: trip,
    preventExtensions: trip,
  } as ProxyHandler<object>;
  return handler;
}

/** The global object's blocked names become tripwires or report-on-read accessors. */
function lockGlobals(global: typeof globalThis, functionGuard: unknown, onBlocked: OnBlocked) {
  for (const name of BLOCKED_CALLABLE_GLOBALS) {
    const replacement = name === "Function" ? functionGuard : stub(name, onBlocked);
    Object.defineProperty(global, name, locked(replacement));
  }
  // Accessors rather than deletion: a deleted name would fall through to Object.prototype,
  // where a getter planted by the program would receive the global object as `this`.
  for (const name of [...BLOCKED_VALUE_GLOBALS, ...BLOCKED_MODULE_NAMES]) {
    const existing = Object.getOwnPropertyDescriptor(global, name);
    if (existing && !existing.configurable) continue; // `Bun`: neutered member by member
    const trip = () => onBlocked(name);
    Object.defineProperty(global, name, {
      get: trip,
      set: trip,
      enumerable: false,
      configurable: false,
    });
  }
}

/**
 * Every constructor reachable as `fn.constructor` builds code from strings: lock them all.
 * Returns the guard of Function.prototype, which also replaces the global `Function`.
 */
function lockFunctionConstructors(onBlocked: OnBlocked): unknown {
  const prototypes = [
    Object.getPrototypeOf(() => {}),
    Object.getPrototypeOf(async () => {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ];
  for (const prototype of prototypes) {
    const original: { name: string } = prototype.constructor;
    const guard = stub("Function", onBlocked, original.name);
    // `instanceof` and inspection still work: the guard owns the prototype it replaced.
    Object.defineProperty(guard, "prototype", { value: prototype });
    Object.defineProperty(prototype, "constructor", locked(guard));
  }
  return Function.prototype.constructor;
}

/** Stack-trace hooks hand out call sites; keep Bun's own formatter, fixed in place. */
function lockStackTraces(): void {
  Object.defineProperty(Error, "prepareStackTrace", locked(Error.prepareStackTrace));
}

/**
 * Bun's members: the safe ones stay, the writable rest become tripwires, the read-only rest are
 * neutered one level down, then the object is frozen. Members are replaced by assignment, never
 * read or redefined first: Bun creates some (Bun.sql) on first read, at a cost of milliseconds
 * per sandbox, and an assignment replaces them without creating them.
 */
function neuterBun(bun: typeof Bun, onBlocked: OnBlocked): void {
  const names = new WeakMap<object, string>();
  const handler = tripwireHandler(names, onBlocked);
  for (const key of Object.getOwnPropertyNames(bun)) {
    // `main` is an accessor whose setter would take the tripwire; it only names the entry file.
    if (SAFE_BUN_MEMBERS.has(key) || key === "main") continue;
    const name = `Bun.${key}`;
    const target = function blocked() {};
    names.set(target, name);
    let replaced = false;
    try {
      // Made read-only by the freeze below, with every other member.
      replaced = Reflect.set(bun, key, new Proxy(target, handler));
    } catch {
      replaced = false;
    }
    if (!replaced) neuterMembers(Reflect.get(bun, key), name, onBlocked);
  }
  Object.freeze(bun);
}

/**
 * Read-only members that are objects (Bun.dns, Bun.fetch): their own methods, one level down.
 * Some refuse (Bun.env is the environment, which the parent empties): best effort by design.
 */
function neuterMembers(value: unknown, name: string, onBlocked: OnBlocked): void {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return;
  try {
    for (const key of Object.getOwnPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor?.writable && typeof descriptor.value === "function") {
        // stub(), inline (see the top of this file).
        const capability = `${name}.${key}`;
        const blocked = function blocked(): never {
          return onBlocked(capability);
        };
        Object.defineProperty(blocked, "name", { value: key });
        Object.defineProperty(value, key, { value: blocked, writable: false, configurable: false });
      }
    }
    Object.freeze(value);
  } catch {}
}

export function lockdown(global: typeof globalThis, onBlocked: OnBlocked): void {
  const functionGuard = lockFunctionConstructors(onBlocked);
  lockStackTraces();
  neuterBun(global.Bun, onBlocked);
  lockGlobals(global, functionGuard, onBlocked);
}
