import { afterAll, describe, expect, test } from "bun:test";
import { expectedByHost, jsonRequest, statusesByHost } from "@platform/server/testing";
import { makeApp } from "./support.ts";

// nginx in front with `upstream lb` sends `Host: lb`: Elysia routed /api/leaderboard as
// /leaderboard (404) until serve() repaired short-Host URLs (packages/server request-target.ts).
const { app, store } = makeApp();
afterAll(() => store.close());

describe("the leaderboard routes right whatever the Host", () => {
  test("GET /api/leaderboard", async () => {
    expect(await statusesByHost(app, { path: "/api/leaderboard" })).toEqual(expectedByHost(200));
  });

  test("POST /api/leaderboard", async () => {
    const post = jsonRequest("/api/leaderboard", { playerName: "short-host", score: 7 });
    const probe = {
      path: "/api/leaderboard",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await post.text(),
    };
    expect(await statusesByHost(app, probe)).toEqual(expectedByHost(201));
  });
});
