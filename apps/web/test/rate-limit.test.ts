import { expect, test } from "bun:test";
import { readRateLimit } from "../src/client/shared/rate-limit.ts";

test("reads the draft-09 RateLimit and RateLimit-Policy fields the APIs send", () => {
  const headers = new Headers({
    ratelimit: '"bench";r=7;t=42',
    "ratelimit-policy": '"bench";q=10;w=60',
  });
  expect(readRateLimit(headers)).toEqual({
    policy: "bench",
    limit: 10,
    windowSeconds: 60,
    remaining: 7,
    resetSeconds: 42,
  });
});

test("without a policy the limit is unknown; without RateLimit there is nothing", () => {
  expect(readRateLimit(new Headers({ ratelimit: '"x";r=0;t=5' }))).toMatchObject({
    remaining: 0,
    resetSeconds: 5,
    limit: null,
  });
  expect(readRateLimit(new Headers())).toBeNull();
});

test("a field missing r or t, or with junk numbers, is ignored rather than guessed", () => {
  expect(readRateLimit(new Headers({ ratelimit: '"x";r=3' }))).toBeNull();
  expect(readRateLimit(new Headers({ ratelimit: '"x";r=abc;t=2' }))).toBeNull();
});
