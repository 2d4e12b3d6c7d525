#!/usr/bin/env bun
/**
 * Lints the OpenAPI documents the services actually serve (openapi-documents.ts: each app's own
 * and the gateway's merged one) with Redocly CLI's `recommended` rules (redocly.yaml) and
 * Spectral's `spectral:oas` (.spectral.yaml), both pinned devDependencies run on Bun (no Node
 * needed, nothing fetched). Any error or warning from either fails it: the documents are held to
 * zero of both under the project's rules (redocly.yaml, .spectral.yaml).
 * `bun run lint:openapi`; `bun run check` runs it too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servedDocuments } from "./openapi-documents.ts";
import { sh } from "./process.ts";

const root = join(import.meta.dir, "..");
const bin = (name: string) => join(root, "node_modules/.bin", name);
// Redocly would otherwise report usage and look for a newer version over the network.
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

type Count = { errors: number; warnings: number };
type Linted = Count & { output: () => Promise<string> };

async function redocly(file: string): Promise<Linted> {
  const args = ["bun", "--bun", bin("redocly"), "lint", file, "--format=json"];
  const ran = await sh(args, { cwd: root, env });
  const totals = (JSON.parse(ran.stdout || "{}") as { totals?: Count }).totals;
  if (!totals) throw new Error(`redocly gave no result (exit ${ran.code}):\n${ran.stderr}`);
  return {
    ...totals,
    output: () => readable(["bun", "--bun", bin("redocly"), "lint", file, "--format=stylish"]),
  };
}

/** The tool again, for a person to read: only for a document that failed (a run costs seconds). */
async function readable(args: string[]): Promise<string> {
  const ran = await sh(args, { cwd: root, env });
  return ran.stdout + ran.stderr;
}

async function spectral(file: string): Promise<Linted> {
  const args = ["bun", "--bun", bin("spectral"), "lint", file, "-r", ".spectral.yaml"];
  const json = await sh([...args, "-f", "json", "--quiet"], { cwd: root, env });
  const results = JSON.parse(json.stdout || "null") as { severity: number }[] | null;
  if (!results) throw new Error(`spectral gave no result (exit ${json.code}):\n${json.stderr}`);
  return {
    errors: results.filter((r) => r.severity === 0).length,
    warnings: results.filter((r) => r.severity === 1).length,
    output: () => readable([...args, "-f", "text"]),
  };
}

const dir = mkdtempSync(join(tmpdir(), "openapi-lint-"));
let failed = 0;
try {
  for (const { name, path, document } of await servedDocuments()) {
    const file = join(dir, `${name.replace(/\W+/g, "-")}.json`);
    await Bun.write(file, JSON.stringify(document, null, 2));
    const [r, s] = await Promise.all([redocly(file), spectral(file)]);
    const bad = r.errors + s.errors + r.warnings + s.warnings > 0;
    if (bad) {
      failed++;
      console.log(await r.output(), await s.output());
    }
    console.log(
      `${bad ? "FAIL" : "ok  "} ${name} (${path}): Redocly ${r.errors} errors, ${r.warnings} warnings; Spectral ${s.errors} errors, ${s.warnings} warnings`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed === 0 ? "OpenAPI lint: every document clean" : `OpenAPI lint: ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
