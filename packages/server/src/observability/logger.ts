import { currentScope } from "./request-scope.ts";

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
 * Buffered stdout: lines collect in memory and go out in one write when 64 KiB are waiting or
 * 50 ms after the first unwritten line, so the access log costs little at tens of thousands of
 * requests a second. `flush()` (called on shutdown) writes whatever is left.
 */
export function stdoutSink(): LogSink {
  const writer = Bun.stdout.writer({ highWaterMark: 64 * 1024 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flushNow = () => {
    timer = undefined;
    writer.flush();
  };
  return {
    write(line) {
      writer.write(line);
      if (!timer) timer = setTimeout(flushNow, 50);
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      await writer.flush();
    },
  };
}

/**
 * Field names whose values never reach a log: credentials, tokens, cookies, secrets, whatever
 * object they sit in (headers, bodies, config).
 */
export const SECRET_KEY =
  /password|passphrase|passwd|^pass$|secret|token|authorization|cookie|api[-_]?key|credential|jwt/i;
/** user:password@ in a URL (a DATABASE_URL, REDIS_URL, SMTP_URL logged by mistake). */
export const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)[^@/?#\s]+@/gi;
export const REDACTED = "[redacted]";

/**
 * One `name=value` of a query string or fragment (`?token=…`, `&code=…`, `#access_token=…`),
 * wherever a URL sits in a string: an emailed link, an error's message, a redirect target.
 */
const URL_PARAMETER = /([?&;#])([^=&#;?\s]+)=([^&#;\s"'<>]*)/g;
/**
 * Parameter names whose values are credentials, beyond the field names above (which also cover
 * access_token, client_secret, X-Amz-Credential, X-Amz-Security-Token): OAuth's `code`, and the
 * `key`, `sig`, `signature`, `otp`, `auth` and session ids that signed and API URLs carry.
 */
const SECRET_PARAMETER = /^(?:code|key|sig|otp|auth|sid|session(?:[-_]?id)?)$|signature/i;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

const isSecretParameter = (name: string) => {
  const decoded = decodedName(name);
  return SECRET_KEY.test(decoded) || SECRET_PARAMETER.test(decoded);
};

/** A string with URL passwords and credential query parameters replaced. */
function redactString(value: string): string {
  // Most strings hold no URL and no parameter: the access log's hot path skips the expressions.
  let out = value.includes("://") ? value.replace(URL_PASSWORD, `$1${REDACTED}@`) : value;
  if (out.includes("=")) {
    out = out.replace(URL_PARAMETER, (whole, separator: string, name: string) =>
      isSecretParameter(name) ? `${separator}${name}=${REDACTED}` : whole,
    );
  }
  return out;
}

/**
 * Errors become plain fields (the stack stays in the log, never in a response); secrets are
 * redacted, by field name at any depth, and in any string (or URL object) as passwords inside
 * URLs and as credential parameters of query strings.
 */
function serialize(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactString(value);
  if (value instanceof URL) return redactString(value.href);
  if (value instanceof Error) {
    return {
      name: value.name,
      message: serialize(value.message),
      stack: serialize(value.stack),
    };
  }
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => serialize(item, depth + 1));
  // Dates, URLs and other objects with their own JSON form are written as JSON writes them.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : serialize(item, depth + 1);
  }
  return out;
}

export function createLogger(opts: { service: string; level: LogLevel; sink?: LogSink }): Logger {
  const sink = opts.sink ?? stdoutSink();
  const threshold = rank[opts.level];
  const emit = (level: Exclude<LogLevel, "silent">, msg: string, fields?: Fields) => {
    if (rank[level] < threshold) return;
    const record: Fields = {
      time: new Date().toISOString(),
      level,
      service: opts.service,
      msg: redactString(msg),
    };
    // Written while a request is served: its ids, so every line of it can be found together.
    const scope = currentScope();
    if (scope) {
      record.requestId = scope.requestId;
      if (scope.traceId) {
        record.traceId = scope.traceId;
        record.spanId = scope.spanId;
      }
    }
    if (fields) {
      for (const key in fields)
        record[key] = SECRET_KEY.test(key) ? REDACTED : serialize(fields[key]);
    }
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
