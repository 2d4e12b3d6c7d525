/**
 * The share link: the program deflated (the browser's own CompressionStream, no library) and
 * base64url-encoded into the URL's fragment, `#code=…`. The fragment never reaches a server, so
 * a shared program is not logged anywhere on the way.
 */
const PREFIX = "#code=";
/** A link cannot make the page inflate more than this (a hostile link could be a zip bomb). */
const MAX_DECODED_BYTES = 64 * 1024;

const toBase64Url = (bytes: Uint8Array) => {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromBase64Url = (text: string) => {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

export async function shareFragment(code: string): Promise<string> {
  const stream = new Blob([code]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return PREFIX + toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

export type Shared = { ok: true; code: string } | { ok: false } | null;

/** The program in a fragment: null when there is none, `ok: false` when it cannot be read. */
export async function readShared(fragment: string): Promise<Shared> {
  if (!fragment.startsWith(PREFIX)) return null;
  try {
    const bytes = fromBase64Url(fragment.slice(PREFIX.length));
    const reader = new Blob([bytes])
      .stream()
      .pipeThrough(new DecompressionStream("deflate-raw"))
      .getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_DECODED_BYTES) {
        await reader.cancel();
        return { ok: false };
      }
      chunks.push(new Uint8Array(value));
    }
    const code = new TextDecoder("utf-8", { fatal: true }).decode(
      await new Blob(chunks).arrayBuffer(),
    );
    return { ok: true, code };
  } catch {
    return { ok: false };
  }
}
