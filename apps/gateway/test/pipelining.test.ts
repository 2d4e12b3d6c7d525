import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { listen, parseTrustedProxies } from "@platform/server";
import { pipelined, rawRequest } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { fakeUpstream, routeTo, silent } from "./support.ts";

// Pipelined requests on the listener HTTP_PIPELINING turns on (Bun.serve closes such a
// connection unanswered: packages/server pipelining.test.ts). The upstream answers
// /api/leaderboard/<ms> after <ms> ms, so the first request sent is the last one done.
const aborted: string[] = [];
const upstream = fakeUpstream(async (request) => {
  const path = new URL(request.url).pathname;
  if (path === "/api/leaderboard/hang") {
    await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    aborted.push(path);
    return new Response("nobody reads this");
  }
  const body = request.method === "POST" ? await request.text() : "";
  await Bun.sleep(Number(path.split("/").pop()) || 0);
  return Response.json({ path, method: request.method, body });
});
afterAll(() => upstream.server.stop(true));
const app = createApp({
  routes: [routeTo("leaderboard", upstream.target, ["/api/leaderboard"])],
  trustedProxies: parseTrustedProxies("none"),
  logger: silent,
  probeTimeoutMs: 300,
});
const paths = (responses: { body: string }[]) => responses.map((r) => JSON.parse(r.body).path);

describe("the gateway answers pipelined requests in order", () => {
  test("two proxied GETs, the first the slower", async () => {
    const responses = await pipelined(app, [
      rawRequest("/api/leaderboard/60"),
      rawRequest("/api/leaderboard/0"),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(paths(responses)).toEqual(["/api/leaderboard/60", "/api/leaderboard/0"]);
  });

  test("three: proxied, its own, proxied", async () => {
    const responses = await pipelined(app, [
      rawRequest("/api/leaderboard/50"),
      rawRequest("/gateway/live"),
      rawRequest("/api/leaderboard/10"),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(responses[0]?.body ?? "").path).toBe("/api/leaderboard/50");
    expect(JSON.parse(responses[2]?.body ?? "").path).toBe("/api/leaderboard/10");
  });

  test("POSTs go upstream with their own bodies", async () => {
    const post = (n: number) =>
      rawRequest(`/api/leaderboard/${30 - n * 10}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ n }),
      });
    const responses = await pipelined(app, [post(1), post(2), post(3)]);
    expect(responses.map((r) => JSON.parse(r.body).body)).toEqual(
      [1, 2, 3].map((n) => JSON.stringify({ n })),
    );
  });
});

describe("a client that really hangs up still cancels the upstream request", () => {
  for (const pipelining of [false, true]) {
    test(pipelining ? "on the pipelining listener" : "on Bun.serve", async () => {
      aborted.length = 0;
      upstream.seen.length = 0;
      const listener = await listen(app, { port: 0, hostname: "127.0.0.1", pipelining });
      try {
        const socket = connect(listener.port, "127.0.0.1", () =>
          socket.write(rawRequest("/api/leaderboard/hang")),
        );
        await Bun.sleep(150);
        socket.destroy();
        for (let i = 0; i < 200 && aborted.length === 0; i++) await Bun.sleep(10);
        expect(aborted).toEqual(["/api/leaderboard/hang"]);
      } finally {
        await listener.stop(true);
      }
    });
  }
});
