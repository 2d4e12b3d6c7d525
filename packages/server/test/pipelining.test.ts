import { describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { Elysia } from "elysia";
import { createLogger, listen, peerAddressOf, platform } from "../src/index.ts";
import { exchange, pipelined, rawRequest } from "./support/index.ts";

const logger = createLogger({ service: "fixture", level: "silent" });

/** Every answer waits on a timer first: real I/O, as a store, a database or an upstream is. */
const signals: { path: string; aborted: boolean }[] = [];
const app = new Elysia()
  .use(platform({ service: "fixture", logger }))
  .get("/wait/:ms", async ({ params, request }) => {
    await Bun.sleep(Number(params.ms));
    signals.push({ path: params.ms, aborted: request.signal.aborted });
    return { waited: Number(params.ms) };
  })
  .post("/echo", async ({ body }) => {
    await Bun.sleep(20);
    return body;
  })
  .get("/peer", ({ request, server }) => ({ peer: peerAddressOf(request, server) ?? null }))
  .get("/cookies", ({ set }) => {
    set.headers["set-cookie"] = ["a=1; Path=/", "b=2; Path=/"];
    return "two cookies";
  })
  .delete("/things/:id", ({ params, request }) => ({
    deleted: params.id,
    body: request.body !== null,
  }))
  .get("/until-gone", async ({ request }) => {
    await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    signals.push({ path: "until-gone", aborted: true });
    return "nobody reads this";
  });

const bodies = (responses: { body: string }[]) => responses.map((r) => JSON.parse(r.body));

describe("Bun.serve, the default listener, and pipelined requests", () => {
  // oven-sh/bun#38128 (open): uWS closes the connection when a request's head arrives while the
  // previous answer is pending. When this fails, Bun answers them itself: HTTP_PIPELINING and
  // pipelining-listener.ts can go (docs/decisions.md "Pipelining").
  test("still closes the connection with nothing answered (Bun 1.4.4's defect)", async () => {
    const responses = await pipelined(app, [rawRequest("/wait/30"), rawRequest("/wait/0")], {
      pipelining: false,
    });
    expect(responses).toEqual([]);
  });
});

describe("the pipelining listener answers pipelined requests in order (RFC 9112 §9.3.2)", () => {
  test("two, the first the slower", async () => {
    const responses = await pipelined(app, [rawRequest("/wait/60"), rawRequest("/wait/0")]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(bodies(responses)).toEqual([{ waited: 60 }, { waited: 0 }]);
  });

  test("three, slowest first, with their request ids", async () => {
    const ids = ["one", "two", "three"];
    const responses = await pipelined(
      app,
      ["/wait/80", "/wait/40", "/wait/0"].map((path, i) =>
        rawRequest(path, { headers: { "x-request-id": ids[i] ?? "" } }),
      ),
    );
    expect(bodies(responses)).toEqual([{ waited: 80 }, { waited: 40 }, { waited: 0 }]);
    expect(responses.map((r) => r.headers.get("x-request-id"))).toEqual(ids);
  });

  test("POSTs with bodies, each answered with its own", async () => {
    const post = (n: number) =>
      rawRequest("/echo", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ n }),
      });
    const responses = await pipelined(app, [post(1), post(2), post(3)]);
    expect(bodies(responses)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  test("a pipelined request's signal is not aborted: the client is still there", async () => {
    signals.length = 0;
    await pipelined(app, [rawRequest("/wait/50"), rawRequest("/wait/10")]);
    // Both GETs ran side by side (the second finished first); neither was told its client left.
    expect(signals).toEqual([
      { path: "10", aborted: false },
      { path: "50", aborted: false },
    ]);
  });

  test("an unsafe request runs only after those sent before it, and before those after it", async () => {
    const order: string[] = [];
    const ordered = new Elysia()
      .get("/read/:ms", async ({ params }) => {
        order.push(`start read ${params.ms}`);
        await Bun.sleep(Number(params.ms));
        order.push(`end read ${params.ms}`);
        return "read";
      })
      .post("/write", async () => {
        order.push("start write");
        await Bun.sleep(10);
        order.push("end write");
        return "written";
      });
    const write = rawRequest("/write", { method: "POST", body: "" });
    const responses = await pipelined(ordered, [
      rawRequest("/read/40"),
      write,
      rawRequest("/read/0"),
    ]);
    expect(responses.map((r) => r.body)).toEqual(["read", "written", "read"]);
    expect(order).toEqual([
      "start read 40",
      "end read 40",
      "start write",
      "end write",
      "start read 0",
      "end read 0",
    ]);
  });

  test("a client that really hangs up aborts its request's signal", async () => {
    signals.length = 0;
    const listener = await listen(app, { port: 0, hostname: "127.0.0.1", pipelining: true });
    try {
      const socket = connect(listener.port, "127.0.0.1", () =>
        socket.write(rawRequest("/until-gone")),
      );
      await Bun.sleep(100);
      socket.destroy();
      for (let i = 0; i < 100 && signals.length === 0; i++) await Bun.sleep(10);
      expect(signals).toEqual([{ path: "until-gone", aborted: true }]);
    } finally {
      await listener.stop(true);
    }
  });

  test("a request still waiting for its turn when its client hangs up is never run", async () => {
    const ran: string[] = [];
    const queued = new Elysia()
      .get("/slow", async () => {
        await Bun.sleep(150);
        return "slow";
      })
      .post("/write", () => {
        ran.push("write");
        return "written";
      });
    const listener = await listen(queued, { port: 0, hostname: "127.0.0.1", pipelining: true });
    try {
      const socket = connect(listener.port, "127.0.0.1", () =>
        socket.write(rawRequest("/slow") + rawRequest("/write", { method: "POST", body: "x" })),
      );
      await Bun.sleep(50);
      socket.destroy();
      await Bun.sleep(250);
      expect(ran).toEqual([]);
    } finally {
      await listener.stop(true);
    }
  });

  test("handlers see the client's address, and every Set-Cookie", async () => {
    const [peer, cookies] = await pipelined(app, [rawRequest("/peer"), rawRequest("/cookies")]);
    expect(JSON.parse(peer?.body ?? "")).toEqual({ peer: expect.stringMatching(/127\.0\.0\.1$/) });
    expect(cookies?.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  test("a request that declares no body has none (a DELETE without Content-Length: no 415)", async () => {
    const listener = await listen(app, { port: 0, hostname: "127.0.0.1", pipelining: true });
    try {
      const bare = "DELETE /things/7 HTTP/1.1\r\nHost: x\r\n\r\n";
      const empty = "DELETE /things/8 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";
      const answers = await exchange(listener.port, bare + empty, 2);
      expect(answers.map((answer) => [answer.status, JSON.parse(answer.body)])).toEqual([
        [200, { deleted: "7", body: false }],
        [200, { deleted: "8", body: false }],
      ]);
    } finally {
      await listener.stop(true);
    }
  });

  test("a body over the listener's limit is refused before the app, as Bun.serve refuses it", async () => {
    const listener = await listen(app, {
      port: 0,
      hostname: "127.0.0.1",
      pipelining: true,
      maxRequestBodySize: 1024,
    });
    try {
      const big = rawRequest("/echo", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pad: "x".repeat(2048) }),
      });
      const [refused] = await exchange(listener.port, big, 1);
      expect(refused?.status).toBe(413);
      // Chunked, with no length declared: cut off once past the limit, never echoed.
      const pad = JSON.stringify({ pad: "x".repeat(2048) });
      const chunked = `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${pad.length.toString(16)}\r\n${pad}\r\n0\r\n\r\n`;
      const answers = await exchange(listener.port, chunked, 1, 2_000);
      expect(answers.filter((answer) => answer.status === 200)).toEqual([]);
    } finally {
      await listener.stop(true);
    }
  });

  test("an app that answers before reading the whole body (a 413 mid-upload) leaves the listener up", async () => {
    // As the gateway's proxy does when the upstream refuses an upload part-way: the body's
    // stream is cancelled while the client is still sending. What arrives after must be dropped.
    const early = new Elysia().post(
      "/stop-early",
      async ({ request }) => {
        const reader = request.body?.getReader();
        await reader?.read();
        await reader?.cancel();
        return new Response("enough", { status: 413 });
      },
      { parse: "none" },
    );
    const listener = await listen(early, { port: 0, hostname: "127.0.0.1", pipelining: true });
    try {
      const size = 4 * 1024 * 1024;
      const answered = await new Promise<string>((resolve, reject) => {
        const socket = connect(listener.port, "127.0.0.1", async () => {
          socket.write(
            `POST /stop-early HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`,
          );
          // The body in pieces, some after the answer, until the socket is done.
          for (let sent = 0; sent < size && !socket.destroyed; sent += 256 * 1024) {
            socket.write(Buffer.alloc(256 * 1024, 0x61));
            await Bun.sleep(10);
          }
          socket.end();
        });
        let text = "";
        socket.on("data", (chunk: Buffer) => {
          text += chunk.toString("latin1");
        });
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answered.startsWith("HTTP/1.1 413")).toBe(true);
      // Still listening, and still answering.
      const [next] = await exchange(
        listener.port,
        rawRequest("/stop-early", { method: "POST", body: "x" }),
        1,
      );
      expect(next?.status).toBe(413);
    } finally {
      await listener.stop(true);
    }
  });

  test("stop() lets an in-flight answer finish, then refuses connections", async () => {
    const listener = await listen(app, { port: 0, hostname: "127.0.0.1", pipelining: true });
    const inFlight = exchange(listener.port, rawRequest("/wait/150"), 1);
    await Bun.sleep(50);
    await listener.stop(false);
    expect(bodies(await inFlight)).toEqual([{ waited: 150 }]);
    expect(await exchange(listener.port, rawRequest("/wait/0"), 1, 1_000)).toEqual([]);
  });
});
