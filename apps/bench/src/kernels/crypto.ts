import type { KernelFactory } from "./types.ts";

const BUFFER_BYTES = 16 * 1024;

/**
 * Crypto hashing: SHA-256 of a 16 KiB buffer with Bun's native hasher. The first bytes change
 * with the iteration so every digest is different; the digest is written into a reused buffer
 * so the kernel itself allocates nothing.
 */
export const cryptoKernel: KernelFactory = () => {
  const buffer = new Uint8Array(BUFFER_BYTES);
  for (let i = 0; i < BUFFER_BYTES; i++) buffer[i] = (i * 131 + 7) & 0xff;
  const hasher = new Bun.CryptoHasher("sha256");
  // Bun checks the output buffer against the largest digest it supports (64 bytes), not SHA-256's 32.
  const digest = new Uint8Array(64);
  const view = new DataView(buffer.buffer);
  return (iteration) => {
    view.setUint32(0, iteration);
    hasher.update(buffer);
    hasher.digest(digest);
    return (digest[0] ?? 0) + (digest[31] ?? 0);
  };
};
