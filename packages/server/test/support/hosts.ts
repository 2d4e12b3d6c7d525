import type { AnyElysia } from "elysia";
import { listen, scopedFetch } from "../../src/http/listen.ts";
import { exchange, rawRequest } from "./raw-http.ts";

/**
 * Hosts Elysia 1.4.30 misroutes unless serve() repairs the URL (request-target.ts): under four
 * characters without a port, or with a short port; and the shortest IPv6 literals beside them.
 */
export const SHORT_HOSTS = ["a", "lb", "web", "a:1", "[::1]", "[::]"] as const;

type Probe = { path: string; method?: string; headers?: Record<string, string>; body?: string };

/** The listener the socket half uses: Bun.serve (the default), or the pipelining one. */
type Options = { pipelining?: boolean };

/**
 * The status `app` answers `probe` with under every Host: in process through the fetch serve()
 * gives Bun (`scopedFetch`), and over a real socket with the Host line as written, also empty
 * and (HTTP/1.0) absent. Keyed by how it was asked, so a failing test names the Host.
 */
export async function statusesByHost(
  app: AnyElysia,
  probe: Probe,
  { pipelining = false }: Options = {},
): Promise<Record<string, number>> {
  const { path, method = "GET", headers = {}, body } = probe;
  const statuses: Record<string, number> = {};
  const fetch = scopedFetch(app);
  for (const host of SHORT_HOSTS) {
    const response = await fetch(new Request(`http://${host}${path}`, { method, headers, body }));
    statuses[`in process, http://${host}`] = response.status;
    await response.arrayBuffer();
  }
  const server = await listen(app, { port: 0, hostname: "127.0.0.1", pipelining });
  try {
    const ask = async (label: string, text: string) => {
      const [response] = await exchange(server.port, text, 1);
      statuses[label] = response?.status ?? 0;
    };
    for (const host of SHORT_HOSTS) {
      await ask(`socket, Host: ${host}`, rawRequest(path, { method, host, headers, body }));
    }
    await ask("socket, Host: (empty)", rawRequest(path, { method, host: "", headers, body }));
    await ask(
      "socket, HTTP/1.0 without Host",
      rawRequest(path, { method, host: null, headers, body, version: "1.0" }),
    );
  } finally {
    await server.stop(true);
  }
  return statuses;
}

/** What `statusesByHost` must give: `status` everywhere, 400 for an empty Host (RFC 9112 §3.2). */
export function expectedByHost(status: number): Record<string, number> {
  const expected: Record<string, number> = {};
  for (const host of SHORT_HOSTS) expected[`in process, http://${host}`] = status;
  for (const host of SHORT_HOSTS) expected[`socket, Host: ${host}`] = status;
  expected["socket, Host: (empty)"] = 400;
  expected["socket, HTTP/1.0 without Host"] = status;
  return expected;
}
