import { afterEach, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { capturingLogger, type Replica, replica, targets, waitFor } from "./replicas.ts";
import { routeTo, startGateway } from "./support.ts";

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

/** Replicas behind one route on a real gateway; background checks 10 minutes apart. */
async function balanced(replicas: Replica[], opts: { timeoutMs?: number } = {}) {
  for (const r of replicas) cleanups.push(r.stop);
  const log = capturingLogger();
  const route = routeTo("leaderboard", targets(...replicas), ["/api/leaderboard"], opts);
  const gateway = await startGateway([route], "none", {
    logger: log.logger,
    healthIntervalMs: 600_000,
  });
  cleanups.push(gateway.stop);
  // The first check starts as the gateway does; let it finish (the replicas have answered it,
  // and one round trip through the gateway later their answers are taken), so a replica stopped
  // next is found by the requests (passive ejection), not by that check.
  await waitFor(() => replicas.every((r) => r.probes > 0));
  await fetch(`${gateway.base}/gateway/live`);
  const url = `${gateway.base}/api/leaderboard`;
  return { url, log, base: gateway.base };
}

describe("balancing by outstanding requests", () => {
  test("idle replicas take turns", async () => {
    const replicas = [replica(), replica(), replica()];
    const { url } = await balanced(replicas);
    for (let i = 0; i < 30; i++) expect((await fetch(url)).status).toBe(200);
    expect(replicas.map((r) => r.seen.length)).toEqual([10, 10, 10]);
  });

  test("a slow replica gets fewer requests (round robin would give it half)", async () => {
    const slow = replica({ delayMs: 200 });
    const fast = replica();
    const { url } = await balanced([slow, fast]);
    // Four clients, ten requests each, one after another.
    const client = async () => {
      for (let i = 0; i < 10; i++) expect((await fetch(url)).status).toBe(200);
    };
    await Promise.all([client(), client(), client(), client()]);
    expect(slow.seen.length + fast.seen.length).toBe(40);
    expect(slow.seen.length).toBeLessThan(10);
  });
});

describe("a replica that goes away", () => {
  test("is ejected, and its GETs are retried once on another: no failure reaches the client", async () => {
    const [a, b] = [replica(), replica()];
    const { url, log } = await balanced([a, b]);
    b.stop();
    for (let i = 0; i < 10; i++) expect((await fetch(`${url}?i=${i}`)).status).toBe(200);
    expect(a.seen.length).toBe(10);
    const ejected = log.messages("replica ejected");
    expect(ejected).toHaveLength(1);
    expect(ejected[0]).toMatchObject({ upstream: "leaderboard", replica: b.target, forMs: 1_000 });
  });

  test("a POST it refused is sent to another (nothing reached it); after a reset it is not (failure-log.test.ts)", async () => {
    const [a, b] = [replica(), replica()];
    const { url, log } = await balanced([a, b]);
    b.stop();
    for (let i = 0; i < 4; i++) {
      expect((await fetch(url, { method: "POST", body: `post-${i}` })).status).toBe(200);
    }
    expect(a.seen.map((seen) => seen.body)).toEqual(["post-0", "post-1", "post-2", "post-3"]);
    // Equally idle replicas take turns, so the first POST went to the stopped one, was refused.
    expect(log.messages("upstream failed")[0]).toMatchObject({ kind: "refused", attempt: 1 });
  });

  test("all replicas refusing: a POST gets the 502 problem, tried once on each", async () => {
    const [a, b] = [replica(), replica()];
    const { url, log } = await balanced([a, b]);
    a.stop();
    b.stop();
    const res = await fetch(url, { method: "POST", body: "post" });
    expect(res.status).toBe(502);
    expect(await problemOf(res)).toMatchObject({ code: "BAD_GATEWAY", reason: "ECONNREFUSED" });
    expect(log.messages("upstream failed").map((line) => line.attempt)).toEqual([1, 2]);
  });

  test("a POST with Idempotency-Key is retried on another replica", async () => {
    const [a, b] = [replica(), replica()];
    const { url, log } = await balanced([a, b]);
    b.stop();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "idempotency-key": `key-${i}` },
        body: `post-${i}`,
      });
      expect(res.status).toBe(200);
    }
    expect(a.seen.map((seen) => seen.body)).toEqual(["post-0", "post-1", "post-2", "post-3"]);
    expect(log.messages("replica ejected")).toHaveLength(1);
  });

  test("a streamed body is never replayed, even with Idempotency-Key", async () => {
    const [a, b] = [replica(), replica()];
    const { url } = await balanced([a, b]);
    b.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`chunk-${i}`));
          controller.close();
        },
      });
      const res = await fetch(url, {
        method: "PUT",
        headers: { "idempotency-key": `key-${i}` },
        body,
      });
      statuses.push(res.status);
    }
    expect(statuses.sort()).toEqual([200, 502]);
    expect(a.seen).toHaveLength(1);
  });

  test("a timed-out GET is not retried (the replica may still be working on it)", async () => {
    const slow = replica({ delayMs: 1_000 });
    const fast = replica();
    const { url } = await balanced([slow, fast], { timeoutMs: 150 });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await fetch(url)).status);
    expect(statuses.sort()).toEqual([200, 504]);
    expect(slow.seen).toHaveLength(1);
    expect(fast.seen).toHaveLength(1);
  });
});
