/**
 * Reading a sandbox's two output streams: control lines on standard error, the program's output
 * (capped, without the harness's START_ECHO) on standard output.
 */
import { START_ECHO } from "./protocol.ts";

/** Calls `onLine` for every line of `stream`, the last one even without its newline. */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
) {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n")) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  }
  if (pending) onLine(pending);
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
