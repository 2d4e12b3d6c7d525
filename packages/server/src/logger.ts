export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
type Fields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** Writes out anything buffered; call before the process exits. */
  flush(): Promise<void>;
}

export type LogSink = { write(line: string): void; flush(): Promise<void> };

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/**
 * Buffered stdout: one write syscall per event-loop turn instead of one per line, so the
 * access log costs little at tens of thousands of requests a second.
 */
export function stdoutSink(): LogSink {
  const writer = Bun.stdout.writer();
  let scheduled = false;
  const flushSoon = () => {
    scheduled = false;
    writer.flush();
  };
  return {
    write(line) {
      writer.write(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flushSoon);
      }
    },
    async flush() {
      await writer.flush();
    },
  };
}

/** Errors become plain fields; the stack stays in the log, never in a response. */
function serialize(value: unknown): unknown {
  if (value instanceof Error)
    return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(opts: { service: string; level: LogLevel; sink?: LogSink }): Logger {
  const sink = opts.sink ?? stdoutSink();
  const threshold = rank[opts.level];
  const emit = (level: Exclude<LogLevel, "silent">, msg: string, fields?: Fields) => {
    if (rank[level] < threshold) return;
    const record: Fields = { time: new Date().toISOString(), level, service: opts.service, msg };
    if (fields) for (const key in fields) record[key] = serialize(fields[key]);
    sink.write(`${JSON.stringify(record)}\n`);
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    flush: () => sink.flush(),
  };
}

/** A sink that keeps lines in memory, for tests that assert on what was logged. */
export function memorySink(): LogSink & { lines: () => Fields[] } {
  const lines: string[] = [];
  return {
    write: (line) => void lines.push(line),
    flush: async () => {},
    lines: () => lines.map((line) => JSON.parse(line) as Fields),
  };
}
