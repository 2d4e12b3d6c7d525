import { createLogger } from "@platform/server";

/**
 * One replica of an app on a real loopback port: answers its readiness probe as `ready` says,
 * records every other request (probes are counted apart, so background checks never blur what
 * the balancer sent) and holds each one `delayMs` before answering.
 */
export function replica(opts: { delayMs?: number } = {}) {
  const state = {
    ready: true,
    delayMs: opts.delayMs ?? 0,
    probes: 0,
    seen: [] as { method: string; path: string; body: string }[],
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request, srv): Promise<Response> {
      const path = request.url.slice(request.url.indexOf("/", 8));
      if (path.startsWith("/health/ready")) {
        state.probes++;
        return state.ready ? Response.json({ status: "ok" }) : new Response("{}", { status: 503 });
      }
      const body = await request.text();
      state.seen.push({ method: request.method, path, body });
      if (state.delayMs > 0) await Bun.sleep(state.delayMs);
      return Response.json({ port: srv.port, body });
    },
  });
  return Object.assign(state, {
    server,
    target: `http://127.0.0.1:${server.port}`,
    stop: () => server.stop(true),
  });
}
export type Replica = ReturnType<typeof replica>;

/** Several replicas' origins as one env-style list. */
export const targets = (...replicas: Replica[]) => replicas.map((r) => r.target).join(",");

/** Polls `condition` until it holds; fails after `timeoutMs` (a deadline, not a measurement). */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await Bun.sleep(10);
  }
}

/** A logger whose lines the test can read: ejections and recoveries are part of the contract. */
export function capturingLogger() {
  const lines: { msg: string; [field: string]: unknown }[] = [];
  const logger = createLogger({
    service: "gateway",
    level: "info",
    sink: {
      write: (line) => lines.push(JSON.parse(line)),
      flush: async () => {},
    },
  });
  return { logger, lines, messages: (msg: string) => lines.filter((line) => line.msg === msg) };
}
