/**
 * What the runner's sandbox offers besides the ES library, as declarations for the checker:
 * the console (everything written to it is the output), timers, and fetch, which exists but is
 * refused at run time with a SecurityError (so the checker says nothing and the run explains).
 * Bun's own API and the DOM are left out on purpose: almost all of it is blocked there.
 */
export const SANDBOX_GLOBALS = `
interface Console {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
  table(data: unknown): void;
}
declare var console: Console;
declare function setTimeout(handler: (...args: unknown[]) => void, ms?: number): number;
declare function clearTimeout(id: number | undefined): void;
declare function setInterval(handler: (...args: unknown[]) => void, ms?: number): number;
declare function clearInterval(id: number | undefined): void;
declare function queueMicrotask(callback: () => void): void;
declare function structuredClone<T>(value: T): T;
declare class TextEncoder { encode(input?: string): Uint8Array; }
declare class TextDecoder { constructor(label?: string); decode(input?: ArrayBufferView | ArrayBuffer): string; }
interface SandboxResponse { status: number; ok: boolean; text(): Promise<string>; json(): Promise<unknown>; }
/** Refused in the sandbox: programs have no network. */
declare function fetch(input: string | { href: string }, init?: object): Promise<SandboxResponse>;
`;
