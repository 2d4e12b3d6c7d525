/**
 * The gateway and trace context: off, a client's `traceparent` reaches the upstream untouched;
 * on, each attempt is a client span under the gateway's server span, and the upstream is told
 * that span as its parent (a retried request shows both attempts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseTrustedProxies, scopedFetch, startTracing, stopTracing } from "@platform/server";
import { freePort, startOtlpReceiver } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import type { Route } from "../src/modules/proxy/model.ts";
import { deadTarget, fakeUpstream, routeTo, type Seen, silent } from "./support.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const incoming = { traceparent: `00-${TRACE}-${CALLER_SPAN}-01`, tracestate: "vendor=kept" };
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

const echo = fakeUpstream();
const stops: (() => unknown)[] = [() => echo.server.stop(true)];
afterAll(async () => {
  await stopTracing();
  for (const stop of stops) await stop();
});

/** The gateway served as serve() serves it: each request inside its scope. */
async function startScoped(routes: Route[]) {
  const app = createApp({ routes, trustedProxies: parseTrustedProxies("none"), logger: silent });
  const server = Bun.serve({
    port: await freePort(),
    hostname: "127.0.0.1",
    fetch: scopedFetch(app),
  });
  app.server = server;
  stops.push(() => server.stop(true));
  return `http://127.0.0.1:${server.port}`;
}

const seenBy = async (response: Response) => ((await response.json()) as Seen).headers;

describe("tracing off", () => {
  test("a client's traceparent and tracestate reach the upstream untouched", async () => {
    const base = await startScoped([routeTo("leaderboard", echo.target, ["/api/leaderboard"])]);
    const seen = await seenBy(await fetch(`${base}/api/leaderboard`, { headers: incoming }));
    expect(seen.traceparent).toBe(incoming.traceparent);
    expect(seen.tracestate).toBe(incoming.tracestate);
  });

  test("without one, none is made up", async () => {
    const base = await startScoped([routeTo("leaderboard", echo.target, ["/api/leaderboard"])]);
    const seen = await seenBy(await fetch(`${base}/api/leaderboard`));
    expect(seen.traceparent).toBeUndefined();
  });
});

describe("tracing on", async () => {
  const collector = await startOtlpReceiver();
  stops.push(() => collector.close());
  // In a hook: a describe's own body runs when the file is collected, before any test.
  beforeAll(() =>
    startTracing({
      service: "gateway",
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_TRACES_SAMPLER_ARG: 1,
        OTEL_BSP_SCHEDULE_DELAY: 60_000,
      },
      logger: silent,
    }),
  );

  test("the upstream's parent is the gateway's client span, under its server span, under the caller", async () => {
    const base = await startScoped([routeTo("leaderboard", echo.target, ["/api/leaderboard"])]);
    const seen = await seenBy(
      await fetch(`${base}/api/leaderboard?secret=1`, { headers: incoming }),
    );
    const [, traceId, parentId] = TRACEPARENT.exec(seen.traceparent ?? "") ?? [];
    expect(traceId).toBe(TRACE);
    expect(parentId).not.toBe(CALLER_SPAN);
    expect(seen.tracestate).toBe(incoming.tracestate);
  });

  test("an unsampled caller: the upstream is told the trace, not sampled, under the gateway", async () => {
    const base = await startScoped([routeTo("leaderboard", echo.target, ["/api/leaderboard"])]);
    const seen = await seenBy(
      await fetch(`${base}/api/leaderboard`, {
        headers: { ...incoming, traceparent: `00-${TRACE}-${CALLER_SPAN}-00` },
      }),
    );
    const [, traceId, parentId] = TRACEPARENT.exec(seen.traceparent ?? "") ?? [];
    expect(traceId).toBe(TRACE);
    expect(parentId).not.toBe(CALLER_SPAN);
    expect(seen.traceparent).toEndWith("-00");
    expect(seen.tracestate).toBe(incoming.tracestate);
  });

  test("a retried request: a client span per attempt, the refused one marked failed", async () => {
    const dead = await deadTarget();
    const base = await startScoped([
      routeTo("leaderboard", `${dead},${echo.target}`, ["/api/leaderboard"]),
    ]);
    // Round robin may start on either replica: ask until one request met the dead one first.
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${base}/api/leaderboard`, {
        headers: { ...incoming, "x-request-id": `retry-${i}` },
      });
      expect(response.status).toBe(200);
    }
    await Bun.sleep(10);
    await stopTracing();

    const spans = collector.spans();
    const servers = spans.filter((span) => span.kind === 2);
    for (const server of servers) {
      expect(server).toMatchObject({ traceId: TRACE, parentSpanId: CALLER_SPAN, name: "GET /*" });
    }
    const clients = spans.filter((span) => span.kind === 3);
    for (const client of clients) {
      expect(servers.map((server) => server.spanId)).toContain(client.parentSpanId ?? "");
      expect(String(client.attributes["url.full"])).not.toContain("?");
    }
    const first = clients.find(
      (client) => client.attributes["url.full"] === `${echo.target}/api/leaderboard`,
    );
    expect(first).toMatchObject({ name: "GET", attributes: { "http.response.status_code": 200 } });
    const refused = clients.filter((client) => client.status === 2);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.attributes["error.type"]).toBe("ECONNREFUSED");
    // The retried request: its server span has both attempts under it.
    const attemptsOf = (spanId: string) => clients.filter((c) => c.parentSpanId === spanId);
    const retried = servers.find((server) => attemptsOf(server.spanId).length === 2);
    expect(
      retried &&
        attemptsOf(retried.spanId)
          .map((c) => c.status)
          .sort(),
    ).toEqual([0, 2]);
    expect(JSON.stringify(spans)).not.toContain("secret=1");
  });
});
