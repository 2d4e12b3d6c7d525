import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { routableUrl } from "../src/http/request-target.ts";
import { createLogger, listen, platform } from "../src/index.ts";
import { expectedByHost, problemOf, statusesByHost } from "./support/index.ts";
import { exchange, rawRequest } from "./support/raw-http.ts";

/** The path and query Elysia 1.4.30 routes a URL by (its `url.indexOf("/", 11)`). */
const elysiaPath = (url: string) => url.slice(url.indexOf("/", 11));

describe("routableUrl: a URL Elysia's path search reads right, naming the same URL", () => {
  const cases = [
    "http://a/api/leaderboard",
    "http://lb/api/leaderboard?limit=5",
    "http://web/",
    "http://web/portal/sign-in?next=/portal/",
    "http://a:1/x/y",
    "http://ab:12/x",
    "http://[::]/health/live",
    "http://[::1]/x",
    "http://abcd/x/y",
    "http://localhost:3000/api/v1/programs/",
    "https://a/x/y",
    "https://ab:1/x",
    "http://a/x:y/z?q=a:b",
  ];
  test.each(cases)("%s", (url) => {
    const routable = routableUrl(url);
    const parsed = new URL(url);
    expect(new URL(routable).href).toBe(parsed.href);
    expect(elysiaPath(routable)).toBe(parsed.pathname + parsed.search);
  });

  test("a URL Elysia already reads right is returned as it is (the common case costs nothing)", () => {
    const url = "http://gateway:8080/api/leaderboard";
    expect(routableUrl(url)).toBe(url);
  });

  test("a relative URL (Bun's, when the Host was missing or unusable) is made absolute", () => {
    expect(routableUrl("/api/v1/applications/7/documents/")).toBe(
      "http://localhost/api/v1/applications/7/documents/",
    );
  });
});

describe("an app served as serve() serves it routes right whatever the Host", () => {
  const logger = createLogger({ service: "fixture", level: "silent" });
  const app = new Elysia()
    .use(platform({ service: "fixture", logger }))
    .get("/api/things/:id", ({ params, request }) => ({
      id: params.id,
      host: new URL(request.url).host,
    }))
    .get("/", () => "home");

  test("a route two segments deep answers under every short Host, in process and on a socket", async () => {
    expect(await statusesByHost(app, { path: "/api/things/7" })).toEqual(expectedByHost(200));
  });

  test("the root page too (Elysia read it as the whole URL)", async () => {
    expect(await statusesByHost(app, { path: "/" })).toEqual(expectedByHost(200));
  });

  test("on the pipelining listener too (HTTP_PIPELINING), which builds the URL itself", async () => {
    const statuses = await statusesByHost(app, { path: "/api/things/7" }, { pipelining: true });
    expect(statuses).toEqual(expectedByHost(200));
  });

  test("the handler still sees the Host it was sent, and an empty Host is a problem+json 400", async () => {
    const server = await listen(app, { port: 0, hostname: "127.0.0.1" });
    const { port } = server;
    try {
      const [short] = await exchange(port, rawRequest("/api/things/7", { host: "lb" }), 1);
      expect(JSON.parse(short?.body ?? "")).toEqual({ id: "7", host: "lb" });
      const [withPort] = await exchange(port, rawRequest("/api/things/7", { host: "a:1" }), 1);
      expect(JSON.parse(withPort?.body ?? "")).toEqual({ id: "7", host: "a:1" });
      const [empty] = await exchange(port, rawRequest("/api/things/7", { host: "" }), 1);
      expect(empty?.status).toBe(400);
      expect(empty?.headers.get("content-type")).toStartWith("application/problem+json");
      const problem = await problemOf(
        new Response(empty?.body, { headers: { "content-type": "application/problem+json" } }),
      );
      expect(problem).toMatchObject({
        code: "BAD_REQUEST",
        detail: expect.stringContaining("Host"),
      });
    } finally {
      await server.stop(true);
    }
  });
});
