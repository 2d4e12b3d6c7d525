import { afterAll, describe, expect, test } from "bun:test";
import { pipelined, rawRequest } from "@platform/server/testing";
import { makeApp } from "./support.ts";

// Pipelined requests on the listener HTTP_PIPELINING turns on (Bun.serve closes such a
// connection unanswered once an answer waits on I/O: Redis here). On both stores.
const { app, store } = makeApp();
afterAll(() => store.close());

const post = (playerName: string, score: number) =>
  rawRequest("/api/leaderboard", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ playerName, score }),
  });

describe("the leaderboard answers pipelined requests in order", () => {
  test("a POST, then the board", async () => {
    const name = `pipe-${crypto.randomUUID().slice(0, 8)}`;
    const responses = await pipelined(app, [post(name, 5), rawRequest("/api/leaderboard")]);
    expect(responses.map((r) => r.status)).toEqual([201, 200]);
    expect(JSON.parse(responses[0]?.body ?? "").playerName).toBe(name);
    expect(Array.isArray(JSON.parse(responses[1]?.body ?? ""))).toBe(true);
  });

  test("three POSTs, each answered with its own entry", async () => {
    const names = [1, 2, 3].map((n) => `pipe-${n}-${crypto.randomUUID().slice(0, 6)}`);
    const responses = await pipelined(
      app,
      names.map((name, i) => post(name, i)),
    );
    expect(responses.map((r) => JSON.parse(r.body).playerName)).toEqual(names);
  });
});
