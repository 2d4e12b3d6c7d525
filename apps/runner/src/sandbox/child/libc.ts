/**
 * The one C library function the harness may need, syscall(2) through bun:ffi, to install the
 * seccomp filter itself (no JavaScript API does). Loaded only then: bun:ffi compiles a
 * trampoline per symbol as it loads, about a millisecond of CPU per sandbox.
 */
import type * as Ffi from "bun:ffi";

export type Syscall = (nr: number, ...args: number[]) => number;

export type Libc = {
  syscall: Syscall;
  /** The address of a typed array's bytes, for the kernel to read or write. */
  address(view: Parameters<typeof Ffi.ptr>[0]): number;
};

export function loadLibc(): Libc {
  // Required, not imported: a static import would load bun:ffi in every sandbox.
  const { dlopen, FFIType, ptr }: typeof Ffi = import.meta.require("bun:ffi");
  const { i64 } = FFIType;
  const { symbols } = dlopen("libc.so.6", {
    syscall: { args: [i64, i64, i64, i64, i64, i64], returns: i64 },
  });
  return {
    syscall: (nr, a = 0, b = 0, c = 0, d = 0, e = 0) => Number(symbols.syscall(nr, a, b, c, d, e)),
    address: (view) => ptr(view),
  };
}
