import { describe, expect, test } from "bun:test";
import { ConfigError, commonEnv, parseEnv, port, splitList, EnvType as T } from "../src/index.ts";

const Schema = T.Object({
  ...commonEnv,
  APP_PORT: port(3002, "The test app's port."),
  FEATURE: T.Boolean({ default: false }),
});

describe("parseEnv", () => {
  test("applies defaults and converts strings", () => {
    const env = parseEnv(Schema, { APP_PORT: "4100", FEATURE: "true", LOG_LEVEL: "warn" });
    expect(env).toMatchObject({
      APP_PORT: 4100,
      FEATURE: true,
      LOG_LEVEL: "warn",
      NODE_ENV: "development",
    });
    expect(parseEnv(Schema, {}).APP_PORT).toBe(3002);
  });

  test("an empty string counts as unset", () => {
    expect(parseEnv(Schema, { APP_PORT: "" }).APP_PORT).toBe(3002);
  });

  test("reports every bad variable with the value it had", () => {
    try {
      parseEnv(Schema, { APP_PORT: "eighty", LOG_LEVEL: "loud", SHUTDOWN_TIMEOUT_MS: "-5" });
      throw new Error("expected a ConfigError");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain("APP_PORT");
      expect(message).toContain('"eighty"');
      expect(message).toContain("LOG_LEVEL");
      expect(message).toContain("SHUTDOWN_TIMEOUT_MS");
    }
  });

  test("a port out of range is refused", () => {
    expect(() => parseEnv(Schema, { APP_PORT: "70000" })).toThrow(/APP_PORT/);
  });

  test("splitList trims and drops empty items", () => {
    expect(splitList(" a, b ,,c ")).toEqual(["a", "b", "c"]);
  });
});
