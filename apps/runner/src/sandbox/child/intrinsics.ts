/**
 * The built-ins the harness uses once the program runs, taken when the harness loads, before
 * the program can touch them. A program may replace any method or getter of a prototype, and
 * any global: what the harness reports (the bytes of output, what was printed, the error) must
 * not be what the replacements say. So after the program starts, the harness reads no property
 * of a prototype and calls no method through one: it calls these, each through the captured
 * `Reflect.apply` (whatever Function.prototype.call has become), and it iterates no array (a
 * replaced Array.prototype[Symbol.iterator] would steer for-of and spreads) and builds none
 * by assignment (an Array.prototype setter would take the element): arrays are read by index,
 * which reads their own elements only.
 */

const apply = Reflect.apply;
const getOwn = Object.getOwnPropertyDescriptor;

/** `fn` as a plain function of its receiver: `uncurry(String.prototype.slice)(text, 0, 5)`. */
function uncurry<Self, Args extends unknown[], Result>(
  fn: (this: Self, ...args: Args) => Result,
): (self: Self, ...args: Args) => Result {
  return (self, ...args) => apply(fn, self, args);
}

/** A getter of a prototype, as a plain function of the object it reads. */
function getter<Self, Value>(prototype: object, name: string): (self: Self) => Value {
  const get = getOwn(prototype, name)?.get;
  if (!get) throw new Error(`no getter ${name}`);
  return (self) => apply(get, self, []);
}

const TypedArrayPrototype: object = Object.getPrototypeOf(Uint8Array.prototype);

/** The bytes of a typed array, as the engine knows them. */
export const byteLengthOf: (view: Uint8Array) => number = getter(TypedArrayPrototype, "byteLength");

export const reflectGet = Reflect.get;
export const toText = String;
export const toNumber = Number;
export const truncate = Math.trunc;
export const stringify = JSON.stringify;
export const sliceText = uncurry(String.prototype.slice);
export const startsWith = uncurry(String.prototype.startsWith);
export const indexOf = uncurry(String.prototype.indexOf);
export const fixed = uncurry(Number.prototype.toFixed);
export const mapGet = uncurry(Map.prototype.get) as <K, V>(map: Map<K, V>, key: K) => V | undefined;
export const mapSet = uncurry(Map.prototype.set) as <K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
) => void;
export const mapDelete = uncurry(Map.prototype.delete) as <K, V>(map: Map<K, V>, key: K) => boolean;
export const weakMapGet = uncurry(WeakMap.prototype.get) as <K extends object, V>(
  map: WeakMap<K, V>,
  key: K,
) => V | undefined;
export const promiseThen = uncurry(Promise.prototype.then) as <T>(
  promise: Promise<T>,
  onFulfilled: undefined,
  onRejected: (reason: unknown) => void,
) => Promise<unknown>;
const performanceNow = performance.now;
export const now = (): number => apply(performanceNow, performance, []);
