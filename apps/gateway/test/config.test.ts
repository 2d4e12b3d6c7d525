import { describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { appDeps } from "../src/config.ts";
import { loadEnv } from "../src/env.ts";

const logger = createLogger({ service: "test", level: "silent" });

describe("the environment reaches the app", () => {
  test("every gateway setting is handed to createApp, not only parsed", () => {
    const deps = appDeps(
      loadEnv({
        GATEWAY_HEALTH_INTERVAL_MS: "250",
        GATEWAY_TRUSTED_PROXIES: "10.0.0.0/8",
        GATEWAY_CORS_ORIGINS: "https://apply.example.org",
        LEADERBOARD_URL: "http://a:1,http://b:2",
        GATEWAY_LEADERBOARD_TIMEOUT_MS: "1234",
      }),
      logger,
    );
    expect(deps.healthIntervalMs).toBe(250);
    expect(deps.trustedProxies.spec).toBe("10.0.0.0/8");
    expect([...(deps.corsOrigins ?? [])]).toEqual(["https://apply.example.org"]);
    const leaderboard = deps.routes.find((route) => route.upstream === "leaderboard");
    expect(leaderboard).toMatchObject({ target: "http://a:1,http://b:2", timeoutMs: 1234 });
  });

  test("defaults are env.ts's: checks every 5 s", () => {
    expect(appDeps(loadEnv({}), logger).healthIntervalMs).toBe(5_000);
  });
});
