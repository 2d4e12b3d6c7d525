/**
 * The program's console: every method writes to one stream, so log and error lines keep the
 * order they were written in. Bun's own console is replaced because it can also read standard
 * input and write to either stream out of order.
 */

type Write = (text: string) => void;
type Inspect = (value: unknown, options: { colors: boolean; depth: number }) => string;

const SPECIFIER = /%[sdifjoOc%]/g;

/**
 * console.log's formatting: printf-style specifiers in a leading string, then every other
 * argument, strings as they are and anything else inspected. Bun.inspect (native) rather than
 * node:util, whose loading alone would cost each sandbox several milliseconds.
 */
export function formatArgs(args: unknown[], inspect: Inspect): string {
  const show = (value: unknown) =>
    typeof value === "string" ? value : inspect(value, { colors: false, depth: 4 });
  const [first, ...rest] = args;
  if (typeof first !== "string" || !first.includes("%")) return args.map(show).join(" ");
  let index = 0;
  const head = first.replace(SPECIFIER, (specifier) => {
    if (specifier === "%%") return "%";
    if (index >= rest.length) return specifier;
    const value = rest[index++];
    switch (specifier) {
      case "%s":
        return typeof value === "string" ? value : show(value);
      case "%d":
      case "%i":
        return typeof value === "bigint" ? `${value}n` : String(Math.trunc(Number(value)));
      case "%f":
        return String(Number(value));
      case "%c":
        return "";
      default:
        return show(value);
    }
  });
  return [head, ...rest.slice(index).map(show)].join(" ");
}

export function sandboxConsole(write: Write, inspect: Inspect): Console {
  const format = (args: unknown[]) => formatArgs(args, inspect);
  let indent = "";
  const line = (...args: unknown[]) => {
    const text = format(args);
    write(indent ? `${indent}${text.replaceAll("\n", `\n${indent}`)}\n` : `${text}\n`);
  };
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const elapsed = (label: string) => {
    const start = timers.get(label);
    return start === undefined
      ? undefined
      : `${label}: ${(performance.now() - start).toFixed(3)}ms`;
  };
  const methods = {
    log: line,
    info: line,
    debug: line,
    warn: line,
    error: line,
    dir: (value: unknown) => line(value),
    table: line,
    trace: (...args: unknown[]) => line("Trace:", ...args),
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) line("Assertion failed", ...(args.length ? [":", ...args] : []));
    },
    group: (...args: unknown[]) => {
      if (args.length) line(...args);
      indent += "  ";
    },
    groupEnd: () => {
      indent = indent.slice(2);
    },
    count: (label = "default") => {
      const next = (counts.get(label) ?? 0) + 1;
      counts.set(label, next);
      line(`${label}: ${next}`);
    },
    countReset: (label = "default") => void counts.delete(label),
    time: (label = "default") => void timers.set(label, performance.now()),
    timeLog: (label = "default", ...args: unknown[]) => {
      const text = elapsed(label);
      if (text) line(text, ...args);
    },
    timeEnd: (label = "default") => {
      const text = elapsed(label);
      timers.delete(label);
      if (text) line(text);
    },
  };
  return Object.freeze(Object.assign(Object.create(null), methods)) as Console;
}
