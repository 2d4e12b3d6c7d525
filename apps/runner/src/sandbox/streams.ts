/**
 * Reading a sandbox's two output streams: control lines on standard error, the program's output
 * (capped, without the harness's START_ECHO) on standard output. Every cap is enforced here, in
 * the runner, whatever the program did to the JavaScript of its own process.
 */
import { START_ECHO } from "./protocol.ts";

export type LineCaps = {
  /** A longer line is passed on cut to this many characters, with `clipped` set. */
  maxLineChars: number;
  /** Past this many bytes in all, `onOverflow` is called once and the rest is dropped. */
  maxBytes: number;
  onOverflow: () => void;
};

const UNCAPPED: LineCaps = {
  maxLineChars: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
  onOverflow: () => {},
};

/**
 * Calls `onLine` for every line of `stream`, the last one even without its newline. Within the
 * caps, memory and work stay bounded however much the other side writes.
 */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string, clipped: boolean) => void,
  caps: LineCaps = UNCAPPED,
) {
  const decoder = new TextDecoder();
  let pending = "";
  let clipped = false;
  let bytes = 0;
  for await (const chunk of stream) {
    if (bytes > caps.maxBytes) continue;
    bytes += chunk.byteLength;
    if (bytes > caps.maxBytes) {
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
}

/**
 * Reads the program's output up to `max` bytes; past that, calls `onOverflow` and drops the
 * rest. The harness's START_ECHO, before the program's first byte, is not output.
 */
export function collectOutput(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onOverflow: () => void,
) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let wanted = Number.POSITIVE_INFINITY;
  let onReached = () => {};
  let echoPending = true;
  const closed = (async () => {
    for await (const received of stream) {
      let chunk = received;
      if (echoPending && chunk.byteLength > 0) {
        echoPending = false;
        if (chunk[0] === START_ECHO) chunk = chunk.subarray(1);
      }
      if (truncated) continue;
      if (size + chunk.byteLength > max) {
        chunks.push(chunk.subarray(0, max - size));
        size = max;
        truncated = true;
        onOverflow();
      } else {
        chunks.push(chunk);
        size += chunk.byteLength;
      }
      if (size >= wanted) onReached();
    }
  })();
  return {
    closed,
    /** Resolves once `bytes` have been read (or the stream ended or overflowed). */
    reached(bytes: number): Promise<void> {
      if (size >= bytes || truncated) return Promise.resolve();
      wanted = bytes;
      return Promise.race([closed, new Promise<void>((resolve) => (onReached = resolve))]);
    },
    truncated: () => truncated,
    text: () => new TextDecoder().decode(Buffer.concat(chunks)),
  };
}
