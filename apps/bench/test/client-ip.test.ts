import { afterEach, describe, expect, test } from "bun:test";
import { parseTrustedProxies } from "@platform/server";
import { benchApp, listening } from "./support.ts";

// End to end over a real loopback port, so the peer address is real. Quota is spent with
// invalid bodies, which the limiter counts like any request (422 = let through, 429 = refused)
// without running a benchmark.
const INVALID = { type: "none" };
const LIMIT = 10;

let servers: Awaited<ReturnType<typeof listening>>[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server(trusted = "loopback") {
  const started = await listening(benchApp({ trustedProxies: parseTrustedProxies(trusted) }));
  servers.push(started);
  return started;
}

type Server = Awaited<ReturnType<typeof server>>;

/** Status of one request forwarded "for" the given X-Forwarded-For value (none when null). */
async function statusFor(srv: Server, forwardedFor: string | null) {
  const response = await srv.post(INVALID, forwardedFor ? { "x-forwarded-for": forwardedFor } : {});
  await response.body?.cancel();
  return response.status;
}

/** Sends one request per value and returns the statuses in order. */
async function statuses(srv: Server, values: (string | null)[]) {
  const result: number[] = [];
  for (const value of values) result.push(await statusFor(srv, value));
  return result;
}

const allowedThenRefused = [...Array<number>(LIMIT).fill(422), 429];

describe("behind a trusted proxy (loopback is trusted by default)", () => {
  test("each forwarded client has its own quota", async () => {
    const srv = await server();
    expect(await statuses(srv, Array(LIMIT + 1).fill("203.0.113.10"))).toEqual(allowedThenRefused);
    expect(await statusFor(srv, "203.0.113.11")).toBe(422);
    // Requests straight from the proxy's own address are another client again.
    expect(await statusFor(srv, null)).toBe(422);
  });

  test("prepending made-up hops does not change who is counted", async () => {
    const srv = await server();
    const spoofed = Array.from({ length: LIMIT + 1 }, (_, n) => `198.18.0.${n}, 203.0.113.20`);
    expect(await statuses(srv, spoofed)).toEqual(allowedThenRefused);
  });

  test("a malformed hop is not believed: the walk stops at the proxy", async () => {
    const srv = await server();
    const junk = Array.from({ length: LIMIT + 1 }, (_, n) => `203.0.113.${n}, not-an-ip-${n}`);
    // Every request counts against the loopback peer itself.
    expect(await statuses(srv, junk)).toEqual(allowedThenRefused);
  });

  test("an IPv4-mapped IPv6 address counts as the IPv4 address", async () => {
    const srv = await server();
    const mixed = Array.from({ length: LIMIT + 1 }, (_, n) =>
      n % 2 === 0 ? "::ffff:198.51.100.7" : "198.51.100.7",
    );
    expect(await statuses(srv, mixed)).toEqual(allowedThenRefused);
  });

  test("IPv6 clients are grouped by /64: rotating addresses inside it does not help", async () => {
    const srv = await server();
    const rotating = Array.from(
      { length: LIMIT + 1 },
      (_, n) => `2001:db8:aa:bb:${n.toString(16)}:ffff:0:${(n * 7).toString(16)}`,
    );
    expect(await statuses(srv, rotating)).toEqual(allowedThenRefused);
    // Written differently but the same /64: still refused. The next /64 is someone else.
    expect(await statusFor(srv, "2001:0db8:00aa:00bb::1")).toBe(429);
    expect(await statusFor(srv, "2001:db8:aa:bc::1")).toBe(422);
  });
});

describe("with TRUSTED_PROXIES=none", () => {
  test("X-Forwarded-For is ignored: a new value per request changes nothing", async () => {
    const srv = await server("none");
    const spoofed = Array.from({ length: LIMIT + 1 }, (_, n) => `192.0.2.${n}`);
    expect(await statuses(srv, spoofed)).toEqual(allowedThenRefused);
    expect(await statusFor(srv, null)).toBe(429);
  });

  test("a proxy that is not in the trusted list cannot forward for others", async () => {
    // Only 10.0.0.0/8 is trusted; our loopback peer is not, so its header is not believed.
    const srv = await server("10.0.0.0/8");
    const spoofed = Array.from({ length: LIMIT + 1 }, (_, n) => `192.0.2.${n}`);
    expect(await statuses(srv, spoofed)).toEqual(allowedThenRefused);
  });
});
