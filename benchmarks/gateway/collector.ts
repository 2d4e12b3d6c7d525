/**
 * The OTLP collector stand-in of the gateway benchmarks: it reads every export whole (as a
 * collector's receiver would, so the gateway pays for sending it) and counts its spans, then
 * answers 200. Loopback only.
 */
import { freePort } from "../../packages/server/test/support/ports.ts";

const SPAN_MARK = '"spanId"';

export async function startCollector() {
  const sink = { exports: 0, spans: 0, bytes: 0 };
  const server = Bun.serve({
    port: await freePort(),
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = await request.text();
      sink.exports++;
      sink.bytes += body.length;
      for (let at = body.indexOf(SPAN_MARK); at !== -1; at = body.indexOf(SPAN_MARK, at + 1)) {
        sink.spans++;
      }
      return Response.json({});
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, sink, stop: () => server.stop(true) };
}
