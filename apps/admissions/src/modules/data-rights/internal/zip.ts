import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

export type ZipEntry = {
  name: string;
  /** Produced only when the archive gets to this entry, so nothing is read ahead. */
  open(): Promise<ReadableStream<Uint8Array> | Uint8Array>;
  /** JSON deflates well; PDFs and images are compressed already. */
  compress: boolean;
};

/**
 * A ZIP archive as a stream, entry after entry: each file's bytes pass through as they are
 * read, so memory stays flat however large the files, and nothing is made before the client
 * asks for it (the stream is pulled).
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): ReadableStream<Uint8Array> {
  const chunks = zipChunks(entries);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

async function* zipChunks(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Uint8Array> {
  let ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else if (chunk.byteLength > 0) ready.push(chunk);
  });
  // Yields what the zipper produced since the last call.
  function* drain(): Generator<Uint8Array> {
    if (failure) throw failure;
    const out = ready;
    ready = [];
    yield* out;
  }
  for await (const entry of entries) {
    const file = entry.compress
      ? new ZipDeflate(entry.name, { level: 6 })
      : new ZipPassThrough(entry.name);
    zip.add(file);
    const data = await entry.open();
    if (data instanceof Uint8Array) {
      file.push(data, true);
    } else {
      for await (const chunk of data) {
        file.push(chunk);
        yield* drain();
      }
      file.push(new Uint8Array(0), true);
    }
    yield* drain();
  }
  zip.end();
  yield* drain();
}
