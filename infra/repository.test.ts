/** What a user of the repository finds beside the code: .env.example, .dockerignore, LICENSE. */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { envExample } from "../scripts/env-example.ts";

const root = join(import.meta.dir, "..");
const read = (name: string) => readFileSync(join(root, name), "utf8");

describe("the repository", () => {
  test(".env.example lists every variable of every app with its default (regenerate: bun scripts/env-example.ts)", () => {
    expect(read(".env.example")).toBe(envExample());
    expect(read(".env.example")).toContain("# RUNNER_CLIENT_SANDBOX_MS=30000");
  });

  test(".dockerignore keeps installed packages, git history, data and secrets out of images", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["**/node_modules", ".git", "**/data", ".env"]) {
      expect(ignored).toContain(entry);
    }
  });

  test("a license", () => {
    expect(existsSync(join(root, "LICENSE"))).toBe(true);
    expect(read("LICENSE")).toStartWith("MIT License");
  });
});
