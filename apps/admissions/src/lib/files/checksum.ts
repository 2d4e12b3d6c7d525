import { HttpProblem } from "@platform/server";

/** SHA-256 (hex) of a stream, read chunk by chunk so memory stays flat whatever its size. */
export async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of stream) hasher.update(chunk);
  return hasher.digest("hex");
}

/**
 * What storage holds is not what the client sent (a disk or the network between us and the
 * object store changed it): the upload is not kept, and trying again is the cure, hence 502.
 */
export const checksumMismatch = () =>
  new HttpProblem("BAD_GATEWAY", {
    detail: "The document storage did not keep the file intact; it was not saved, try again",
  });

/**
 * Passes a stored file through while hashing it. Headers are gone by the time the last byte is
 * read, so a mismatch can only end the transfer in error: the client sees a failed download,
 * never a corrupt file that looks complete.
 */
export function verifiedStream(
  stream: ReadableStream<Uint8Array>,
  expectedSha256: string,
): ReadableStream<Uint8Array> {
  const hasher = new Bun.CryptoHasher("sha256");
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hasher.update(chunk);
        controller.enqueue(chunk);
      },
      flush(controller) {
        if (hasher.digest("hex") !== expectedSha256) {
          controller.error(new Error("stored file does not match its SHA-256"));
        }
      },
    }),
  );
}
