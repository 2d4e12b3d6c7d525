/**
 * Reading a sandbox's two output streams: control lines on standard error, the program's output
 * (capped, without the harness's START_ECHO) on standard output. Every cap is enforced here, in
 * the runner, whatever the program did to the JavaScript of its own process.
 */
import { START_ECHO } from "./protocol.ts";

export type LineCaps = {
  /** A longer line is passed on cut to this many characters, with `clipped` set. */
  maxLineChars: number;
  /**
   * Past this many bytes since the start (or the last `restartCount`), `onOverflow` is called
   * once and everything after is dropped.
   */
  maxBytes: number;
  onOverflow: () => void;
};

const UNCAPPED: LineCaps = {
  maxLineChars: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
  onOverflow: () => {},
};

export type LineReader = {
  /** Settles once the stream has ended and every line was passed on. */
  done: Promise<void>;
  /** Counts `maxBytes` afresh from here (a sandbox's next run); not after an overflow. */
  restartCount(): void;
};

/**
 * Calls `onLine` for every line of `stream`, the last one even without its newline. Within the
 * caps, memory and work stay bounded however much the other side writes.
 */
export function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string, clipped: boolean) => void,
  caps: LineCaps = UNCAPPED,
): LineReader {
  let bytes = 0;
  let overflowed = false;
  const done = (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    let clipped = false;
    for await (const chunk of stream) {
      if (overflowed) continue;
      bytes += chunk.byteLength;
      if (bytes > caps.maxBytes) {
        overflowed = true;
        caps.onOverflow();
        continue;
      }
      let text = decoder.decode(chunk, { stream: true });
      for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n")) {
        const line = clipped ? pending : pending + text.slice(0, newline);
        onLine(line.slice(0, caps.maxLineChars), clipped || line.length > caps.maxLineChars);
        pending = "";
        clipped = false;
        text = text.slice(newline + 1);
      }
      if (!clipped) {
        pending += text;
        if (pending.length > caps.maxLineChars) {
          pending = pending.slice(0, caps.maxLineChars);
          clipped = true;
        }
      }
    }
    if (pending) onLine(pending, clipped);
  })();
  return {
    done,
    restartCount: () => {
      bytes = 0;
    },
  };
}

/** One run's share of a sandbox's standard output. */
export type RunOutput = {
  /** Resolves once `bytes` have been read (or the stream ended or overflowed). */
  reached(bytes: number): Promise<void>;
  truncated(): boolean;
  /** Bytes of output received in this run (at most its cap; after `end`, at most its count). */
  received(): number;
  text(): string;
};

export type OutputReader = {
  /** Settles once the stream has ended. */
  closed: Promise<void>;
  /**
   * From now on the program's output belongs to this run, up to `max` bytes; past that,
   * `onOverflow` is called and the rest dropped.
   */
  begin(max: number, onOverflow: () => void): RunOutput;
  /**
   * The run is over. With `counted` (its final word's byte count), whatever came beyond that
   * much is not its output but what followed it: the next worker's START_ECHO (dropped), or
   * stray bytes. What comes next goes the same way, until the next `begin`.
   */
  end(counted?: number): void;
  /** Bytes that came outside any run (besides the echoes): the sandbox is not to be reused. */
  stray(): number;
};

/**
 * Reads a sandbox's standard output for as long as it lives, handing each run its share. Every
 * worker writes START_ECHO before its program's first byte; it is dropped, not output. A read
 * can bring the end of one run's output and the next worker's echo together: the run's count
 * says where one ends.
 */
export function readOutput(stream: ReadableStream<Uint8Array>): OutputReader {
  let echoPending = true;
  let stray = 0;
  type Run = {
    chunks: Uint8Array[];
    size: number;
    max: number;
    truncated: boolean;
    onOverflow(): void;
  };
  let current: Run | undefined;
  let wanted = Number.POSITIVE_INFINITY;
  let onReached = () => {};

  /** Bytes between runs: the echo first, anything else is stray. */
  const between = (chunk: Uint8Array) => {
    let rest = chunk;
    if (echoPending && rest.byteLength > 0) {
      echoPending = false;
      if (rest[0] === START_ECHO) rest = rest.subarray(1);
    }
    stray += rest.byteLength;
  };
  /** The start of a run's share: its worker's echo, if still to come, is not output. */
  const withoutEcho = (chunk: Uint8Array) => {
    if (!echoPending || chunk.byteLength === 0) return chunk;
    echoPending = false;
    return chunk[0] === START_ECHO ? chunk.subarray(1) : chunk;
  };

  const closed = (async () => {
    for await (const received of stream) {
      const run = current;
      if (!run) {
        between(received);
        continue;
      }
      const chunk = withoutEcho(received);
      if (run.truncated) continue;
      if (run.size + chunk.byteLength > run.max) {
        run.chunks.push(chunk.subarray(0, run.max - run.size));
        run.size = run.max;
        run.truncated = true;
        run.onOverflow();
      } else {
        run.chunks.push(chunk);
        run.size += chunk.byteLength;
      }
      if (run.size >= wanted) onReached();
    }
  })();
  return {
    closed,
    begin(max, onOverflow) {
      const run: Run = { chunks: [], size: 0, max, truncated: false, onOverflow };
      current = run;
      wanted = Number.POSITIVE_INFINITY;
      return {
        reached(bytes) {
          if (run.size >= bytes || run.truncated) return Promise.resolve();
          wanted = bytes;
          return Promise.race([closed, new Promise<void>((resolve) => (onReached = resolve))]);
        },
        truncated: () => run.truncated,
        received: () => run.size,
        text: () => new TextDecoder().decode(Buffer.concat(run.chunks)),
      };
    },
    end(counted) {
      const run = current;
      current = undefined;
      echoPending = true;
      if (!run || counted === undefined || run.truncated || run.size <= counted) return;
      const all = Buffer.concat(run.chunks);
      run.chunks = [all.subarray(0, counted)];
      run.size = counted;
      between(all.subarray(counted));
    },
    stray: () => stray,
  };
}
