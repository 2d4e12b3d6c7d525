import type { AnyElysia } from "elysia";
import { listen } from "../../src/http/listen.ts";
import { exchange, type RawResponse } from "./raw-http.ts";

/**
 * `requests` (as `rawRequest` writes them) sent pipelined, in one write on one connection, to
 * `app` on the listener HTTP_PIPELINING turns on; the answers as they came, in order.
 */
export async function pipelined(
  app: AnyElysia,
  requests: string[],
  opts: { pipelining?: boolean; timeoutMs?: number } = {},
): Promise<RawResponse[]> {
  const listener = await listen(app, {
    port: 0,
    hostname: "127.0.0.1",
    pipelining: opts.pipelining ?? true,
  });
  try {
    return await exchange(listener.port, requests.join(""), requests.length, opts.timeoutMs);
  } finally {
    await listener.stop(true);
  }
}
