/**
 * The program's console: every method writes to one stream, so log and error lines keep the
 * order they were written in. Bun's own console is replaced because it can also read standard
 * input and write to either stream out of order.
 */

import {
  fixed,
  indexOf,
  mapDelete,
  mapGet,
  mapSet,
  now,
  sliceText,
  toNumber,
  toText,
  truncate,
} from "./intrinsics.ts";

type Write = (text: string) => void;
type Inspect = (value: unknown, options: { colors: boolean; depth: number }) => string;

const shower = (inspect: Inspect) => (value: unknown) =>
  typeof value === "string" ? value : inspect(value, { colors: false, depth: 4 });

/** The arguments from `from` on, each shown, joined by spaces. */
function joined(args: readonly unknown[], show: (value: unknown) => string, from = 0): string {
  let text = "";
  for (let i = from; i < args.length; i++) text += `${i > from ? " " : ""}${show(args[i])}`;
  return text;
}

/** A printf-style specifier's letter (after the %). */
const isSpecifier = (char: string | undefined): char is string =>
  char === "s" ||
  char === "d" ||
  char === "i" ||
  char === "f" ||
  char === "j" ||
  char === "o" ||
  char === "O" ||
  char === "c";

/**
 * console.log's formatting: printf-style specifiers in a leading string, then every other
 * argument, strings as they are and anything else inspected. Bun.inspect (native) rather than
 * node:util, whose loading alone would cost each sandbox several milliseconds. It runs after
 * the program has started, so it calls no method of a prototype and iterates nothing
 * (intrinsics.ts).
 */
export function formatArgs(args: readonly unknown[], inspect: Inspect): string {
  const show = shower(inspect);
  // Indices past the end are never read: they would be looked up on the prototypes.
  const first = args.length > 0 ? args[0] : undefined;
  if (typeof first !== "string") return joined(args, show);
  let next = 1;
  let text = "";
  let from = 0;
  for (let at = indexOf(first, "%"); at !== -1; at = indexOf(first, "%", from)) {
    text += sliceText(first, from, at);
    const specifier = at + 1 < first.length ? first[at + 1] : undefined;
    from = at + 2;
    if (specifier === "%") text += "%";
    else if (isSpecifier(specifier) && next < args.length) {
      text += formatOne(specifier, args[next++], show);
    } else {
      text += "%";
      from = at + 1;
    }
  }
  text += sliceText(first, from);
  return next < args.length ? `${text} ${joined(args, show, next)}` : text;
}

function formatOne(specifier: string, value: unknown, show: (value: unknown) => string): string {
  switch (specifier) {
    case "s":
      return typeof value === "string" ? value : show(value);
    case "d":
    case "i":
      return typeof value === "bigint" ? `${value}n` : toText(truncate(toNumber(value)));
    case "f":
      return toText(toNumber(value));
    case "c":
      return "";
    default:
      return show(value);
  }
}

/** `text` with `indent` before each of its lines. */
function indented(text: string, indent: string): string {
  let out = indent;
  let from = 0;
  for (let at = indexOf(text, "\n"); at !== -1; at = indexOf(text, "\n", from)) {
    out += `${sliceText(text, from, at)}\n${indent}`;
    from = at + 1;
  }
  return out + sliceText(text, from);
}

export function sandboxConsole(write: Write, inspect: Inspect): Console {
  let indent = "";
  const show = shower(inspect);
  /** One line: `args` formatted, or after `prefix` shown as they are. */
  const print = (args: readonly unknown[], prefix?: string) => {
    const text =
      prefix === undefined
        ? formatArgs(args, inspect)
        : args.length > 0
          ? `${prefix} ${joined(args, show)}`
          : prefix;
    write(indent ? `${indented(text, indent)}\n` : `${text}\n`);
  };
  const line = (...args: unknown[]) => print(args);
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const elapsed = (label: string) => {
    const start = mapGet(timers, label);
    return start === undefined ? undefined : `${label}: ${fixed(now() - start, 3)}ms`;
  };
  const methods = {
    log: line,
    info: line,
    debug: line,
    warn: line,
    error: line,
    dir: (value: unknown) => print([value]),
    table: line,
    trace: (...args: unknown[]) => print(args, "Trace:"),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) print(args, args.length > 0 ? "Assertion failed :" : "Assertion failed");
    },
    group: (...args: unknown[]) => {
      if (args.length) print(args);
      indent += "  ";
    },
    groupEnd: () => {
      indent = sliceText(indent, 2);
    },
    count: (label = "default") => {
      const next = (mapGet(counts, label) ?? 0) + 1;
      mapSet(counts, label, next);
      print([`${label}: ${next}`]);
    },
    countReset: (label = "default") => void mapDelete(counts, label),
    time: (label = "default") => void mapSet(timers, label, now()),
    timeLog: (label = "default", ...args: unknown[]) => {
      const text = elapsed(label);
      if (text) print(args, text);
    },
    timeEnd: (label = "default") => {
      const text = elapsed(label);
      mapDelete(timers, label);
      if (text) print([text]);
    },
  };
  return Object.freeze(Object.assign(Object.create(null), methods)) as Console;
}
