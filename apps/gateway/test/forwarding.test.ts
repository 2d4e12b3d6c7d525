import { afterAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { problemOf } from "@platform/server/testing";
import { fakeUpstream, routeTo, type Seen, startGateway } from "./support.ts";

const echo = fakeUpstream();
const stops: (() => unknown)[] = [() => echo.server.stop(true)];
afterAll(async () => {
  for (const stop of stops) await stop();
});

async function gatewayFor(target: string, extra = {}, trusted = "none") {
  const gateway = await startGateway(
    [routeTo("leaderboard", target, ["/api/leaderboard"], extra)],
    trusted,
  );
  stops.push(gateway.stop);
  return `${gateway.base}/api/leaderboard`;
}

describe("forwarded headers", () => {
  test("a client's X-Forwarded-For is replaced by the real peer; proto, host and request id are set", async () => {
    const url = await gatewayFor(echo.target);
    const res = await fetch(url, {
      headers: {
        "x-forwarded-for": "6.6.6.6",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "evil.example",
        forwarded: "for=6.6.6.6",
      },
    });
    const seen = ((await res.json()) as Seen).headers;
    expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen["x-forwarded-proto"]).toBe("http");
    expect(seen["x-forwarded-host"]).toBe(new URL(url).host);
    expect(seen.forwarded).toBeUndefined();
    expect(seen["x-request-id"]).toBe(res.headers.get("x-request-id") ?? "missing");
  });

  test("behind a configured trusted proxy the chain is kept and the peer appended", async () => {
    const url = await gatewayFor(echo.target, {}, "loopback");
    const res = await fetch(url, {
      headers: { "x-forwarded-for": "203.0.113.5", "x-forwarded-proto": "https" },
    });
    const seen = ((await res.json()) as Seen).headers;
    expect(seen["x-forwarded-for"]).toBe("203.0.113.5, 127.0.0.1");
    expect(seen["x-forwarded-proto"]).toBe("https");
  });

  test("a client's X-Request-Id is propagated to the upstream and back", async () => {
    const url = await gatewayFor(echo.target);
    const res = await fetch(url, { headers: { "x-request-id": "trace-abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-abc-123");
    expect(((await res.json()) as Seen).headers["x-request-id"]).toBe("trace-abc-123");
  });

  test("hop-by-hop request headers, and those named by Connection, are not forwarded", async () => {
    const url = await gatewayFor(echo.target);
    const res = await fetch(url, {
      headers: {
        connection: "keep-alive, x-private-hop",
        "x-private-hop": "secret",
        "keep-alive": "timeout=5",
        te: "trailers",
        "proxy-authorization": "Basic c2VjcmV0",
        "x-end-to-end": "kept",
      },
    });
    const seen = ((await res.json()) as Seen).headers;
    expect(seen["x-private-hop"]).toBeUndefined();
    expect(seen["keep-alive"]).toBeUndefined();
    expect(seen.te).toBeUndefined();
    expect(seen["proxy-authorization"]).toBeUndefined();
    expect(seen["x-end-to-end"]).toBe("kept");
  });

  test("hop-by-hop response headers are stripped; Set-Cookie values all arrive; redirects are not followed", async () => {
    const upstream = fakeUpstream(() => {
      const headers = new Headers({
        connection: "x-upstream-hop",
        "x-upstream-hop": "1",
        "keep-alive": "timeout=9",
        location: "/elsewhere",
      });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response(null, { status: 302, headers });
    });
    stops.push(() => upstream.server.stop(true));
    const res = await fetch(await gatewayFor(upstream.target), { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/elsewhere");
    expect(res.headers.get("x-upstream-hop")).toBeNull();
    expect(res.headers.get("keep-alive")).toBeNull();
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });
});

describe("bodies", () => {
  test("a gzip upstream response arrives readable, and unchanged on the wire", async () => {
    const payload = JSON.stringify({
      hello: "world",
      items: Array.from({ length: 200 }, (_, i) => i),
    });
    const zipped = gzipSync(payload);
    const upstream = fakeUpstream(
      () =>
        new Response(zipped, {
          headers: { "content-encoding": "gzip", "content-type": "application/json" },
        }),
    );
    stops.push(() => upstream.server.stop(true));
    const url = await gatewayFor(upstream.target);
    expect(await (await fetch(url)).text()).toBe(payload);
    const raw = await fetch(url, { decompress: false });
    expect(raw.headers.get("content-encoding")).toBe("gzip");
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(new Uint8Array(zipped));
  });

  test("the response streams: the client reads the first chunk before the upstream writes the last", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const upstream = fakeUpstream(
      () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode("first;"));
              await released; // only after the client has seen "first;"
              controller.enqueue(new TextEncoder().encode("last"));
              controller.close();
            },
          }),
        ),
    );
    stops.push(() => upstream.server.stop(true));
    const res = await fetch(await gatewayFor(upstream.target));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("first;");
    release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe("last");
  });

  test("the request streams: the upstream reads the first chunk before the client sends the last", async () => {
    let upstreamSawFirst = () => {};
    const sawFirst = new Promise<void>((resolve) => {
      upstreamSawFirst = resolve;
    });
    const upstream = fakeUpstream(async (request) => {
      const reader = (request.body as ReadableStream<Uint8Array>).getReader();
      let text = "";
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += new TextDecoder().decode(chunk.value);
        if (text.includes("first;")) upstreamSawFirst();
      }
      return new Response(text);
    });
    stops.push(() => upstream.server.stop(true));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode("first;"));
        await sawFirst; // a buffering gateway would deadlock here
        controller.enqueue(new TextEncoder().encode("last"));
        controller.close();
      },
    });
    const res = await fetch(await gatewayFor(upstream.target), {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    expect(await res.text()).toBe("first;last");
  });

  test("a 5 MB response arrives intact", async () => {
    const big = crypto.getRandomValues(new Uint8Array(5 * 1024 * 1024));
    const upstream = fakeUpstream(() => new Response(big));
    stops.push(() => upstream.server.stop(true));
    const received = new Uint8Array(
      await (await fetch(await gatewayFor(upstream.target))).arrayBuffer(),
    );
    expect(Bun.hash(received)).toBe(Bun.hash(big));
  });
});

describe("body limit", () => {
  test("a declared Content-Length over the limit → 413 before anything reaches the upstream", async () => {
    const before = echo.seen.length;
    const url = await gatewayFor(echo.target, { maxBodyBytes: 1_000 });
    const res = await fetch(url, { method: "POST", body: "x".repeat(1_001) });
    expect(res.status).toBe(413);
    expect((await problemOf(res)).code).toBe("PAYLOAD_TOO_LARGE");
    expect(echo.seen.length).toBe(before);
    expect((await fetch(url, { method: "POST", body: "x".repeat(1_000) })).status).toBe(200);
  });

  test("a chunked body is cut off at the limit → 413", async () => {
    let received = 0;
    const upstream = fakeUpstream(async (request) => {
      try {
        for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>)
          received += chunk.byteLength;
      } catch {}
      return new Response("read");
    });
    stops.push(() => upstream.server.stop(true));
    const chunk = new Uint8Array(64 * 1024);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 64 * 1024 * 1024) return controller.close(); // 64 MiB if nobody stops it
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const url = await gatewayFor(upstream.target, { maxBodyBytes: 1024 * 1024 });
    const res = await fetch(url, { method: "POST", body: endless, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(received).toBeLessThanOrEqual(1024 * 1024);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
});
