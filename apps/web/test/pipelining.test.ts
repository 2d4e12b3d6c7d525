import { describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { pipelined, rawRequest } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";

// Pipelined requests on the listener HTTP_PIPELINING turns on: a browser behind a proxy that
// pipelines asks for a page and its assets at once.
const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});

describe("the site answers pipelined requests in order", () => {
  test("a page and its stylesheet", async () => {
    const responses = await pipelined(app, [rawRequest("/portal/"), rawRequest(bundle.styles)]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(responses[0]?.headers.get("content-type")).toStartWith("text/html");
    expect(responses[1]?.headers.get("content-type")).toStartWith("text/css");
  });

  test("three pages", async () => {
    const responses = await pipelined(
      app,
      ["/", "/game/", "/portal/"].map((path) => rawRequest(path)),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(responses.map((r) => r.headers.get("content-type"))).toEqual(
      Array(3).fill("text/html; charset=utf-8"),
    );
  });
});
