/** A port the OS just handed out and released: good enough for a test server to bind next. */
export async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

/**
 * `count` distinct free ports: each listener is held until all are taken, so the OS cannot hand
 * the same port out twice, as it may to calls of `freePort` one after another (a whole stack on
 * ports from such calls once had two apps on one port: CI, 2026-11-27).
 */
export async function freePorts(count: number): Promise<number[]> {
  const listeners = Array.from({ length: count }, () =>
    Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }),
  );
  const ports = listeners.map((listener) => listener.port);
  for (const listener of listeners) listener.stop(true);
  return ports;
}

/** The port variables of the whole stack, as `bun run start` reads them. */
export const STACK_PORTS = [
  "GATEWAY_PORT",
  "ADMISSIONS_PORT",
  "LEADERBOARD_PORT",
  "RUNNER_PORT",
  "BENCH_PORT",
  "WEB_PORT",
] as const;

/** A distinct free port for every app of the stack, by its variable's name. */
export async function freeStackPorts(): Promise<Record<(typeof STACK_PORTS)[number], number>> {
  const free = await freePorts(STACK_PORTS.length);
  return Object.fromEntries(STACK_PORTS.map((name, i) => [name, free[i] ?? 0])) as Record<
    (typeof STACK_PORTS)[number],
    number
  >;
}

/** Polls until something answers HTTP on `url`. */
export async function waitForHttp(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      lastError = error;
      await Bun.sleep(25);
    }
  }
  throw new Error(`nothing answered at ${url} within ${timeoutMs} ms: ${String(lastError)}`);
}
