/**
 * Ports handed out lately by this process, which are not handed out again: the OS may give a
 * port it just released to the very next request for one (bind to port 0), so calls one after
 * another could name the same port for two servers, and the one that listened later failed to
 * start, again on every restart (the failure drills: "Failed to start server. Is port … in use?"
 * for a bench replica, which listens only after its warm-up). Bounded: the oldest is forgotten.
 */
const recent = new Set<number>();
const RECENT_PORTS = 1024;

/**
 * `count` distinct free ports, none handed out lately by this process: each listener is held
 * until all are taken, so the OS cannot hand the same port out twice meanwhile.
 */
export async function freePorts(count: number): Promise<number[]> {
  const listen = () => Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const listeners: ReturnType<typeof listen>[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < count) {
      const listener = listen();
      listeners.push(listener);
      if (!recent.has(listener.port)) ports.push(listener.port);
    }
  } finally {
    for (const listener of listeners) listener.stop(true);
  }
  for (const port of ports) {
    recent.add(port);
    if (recent.size > RECENT_PORTS) recent.delete(recent.values().next().value ?? port);
  }
  return ports;
}

/** A port the OS just handed out and released: good enough for a test server to bind next. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("no free port");
  return port;
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
