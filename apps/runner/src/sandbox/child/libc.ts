/**
 * The few C library calls the harness makes, through bun:ffi. Writing and reading this way is
 * synchronous and needs none of Bun's node:fs or stream machinery, which would double the
 * start-up cost of every sandbox process.
 */
import { dlopen, FFIType, ptr, read } from "bun:ffi";

const { i32, i64, u64 } = FFIType;

const lib = dlopen("libc.so.6", {
  write: { args: [i32, FFIType.ptr, u64], returns: i64 },
  read: { args: [i32, FFIType.ptr, u64], returns: i64 },
  open: { args: [FFIType.ptr, i32], returns: i32 },
  close: { args: [i32], returns: i32 },
  poll: { args: [FFIType.ptr, u64, i32], returns: i32 },
  setrlimit: { args: [i32, FFIType.ptr], returns: i32 },
  prctl: { args: [i32, u64, u64, u64, u64], returns: i32 },
  syscall: { args: [i64, u64, u64, FFIType.ptr], returns: i64 },
  __errno_location: { args: [], returns: FFIType.ptr },
}).symbols;

export const { setrlimit, prctl, syscall } = lib;

const EINTR = 4;
const EAGAIN = 11;
const POLLIN = 1;
const POLLOUT = 4;

function errno(): number {
  const location = lib.__errno_location();
  return location === null ? 0 : read.i32(location, 0);
}

/** Blocks until `fd` is ready (a descriptor left non-blocking by the parent's end). */
function waitFor(fd: number, events: number): void {
  const pollfd = new Int32Array([fd, events]);
  lib.poll(ptr(pollfd), 1, -1);
}

const encoder = new TextEncoder();

/** Writes all of `text` and returns the bytes written: fewer when the reader is gone. */
export function writeAll(fd: number, text: string): number {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.byteLength) {
    const written = Number(lib.write(fd, ptr(bytes, offset), bytes.byteLength - offset));
    if (written > 0) {
      offset += written;
      continue;
    }
    const code = errno();
    if (code === EINTR) continue;
    if (code === EAGAIN) waitFor(fd, POLLOUT);
    else break;
  }
  return offset;
}

/** Blocks until `fd` reaches end of file, discarding what it reads. */
export function waitForEof(fd: number): void {
  const buffer = new Uint8Array(64);
  for (;;) {
    const got = Number(lib.read(fd, ptr(buffer), buffer.byteLength));
    if (got > 0) continue;
    if (got === 0) return;
    const code = errno();
    if (code === EINTR) continue;
    if (code === EAGAIN) waitFor(fd, POLLIN);
    else return;
  }
}

/** A small file (under 4 KiB, e.g. in /proc) as text. */
export function readSmallFile(path: string): string {
  const fd = lib.open(ptr(encoder.encode(`${path}\0`)), 0);
  if (fd < 0) throw new Error(`cannot open ${path}`);
  try {
    const buffer = new Uint8Array(4096);
    const got = Number(lib.read(fd, ptr(buffer), buffer.byteLength));
    return got > 0 ? new TextDecoder().decode(buffer.subarray(0, got)) : "";
  } finally {
    lib.close(fd);
  }
}
