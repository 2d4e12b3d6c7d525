#!/usr/bin/env bun
/**
 * Writes the tables of the docs that would otherwise be copied from the code by hand, so they
 * cannot drift from it. In README.md and docs/, the lines between
 *
 *   <!-- generated: <kind> <subject> -->
 *   <!-- end generated -->
 *
 * are rewritten from the code:
 *
 * - `config common`: the variables every app reads (`commonEnv` of @platform/server);
 * - `config <app>`: the app's other variables (its `src/env.ts`);
 * - `errors platform`: the generic problem codes (`problemCatalog`);
 * - `errors <app>`: the app's own problem codes;
 * - `routes gateway`: the gateway's routing table with its default addresses, timeouts and
 *   body limits.
 *
 * Each variable's description is the `description` of its schema, each code's that of its
 * problem entry. `bun scripts/docs-tables.ts` rewrites every file; infra/docs-tables.test.ts
 * fails when one is stale.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { GatewayEnv } from "../apps/gateway/src/env.ts";
import { routingTable } from "../apps/gateway/src/modules/proxy/routes.ts";
import { commonEnv, parseEnv } from "../packages/server/src/config/env.ts";
import { type ProblemEntry, problemCatalog } from "../packages/server/src/http/problem.ts";
import { APPS, type VariableSchema } from "./apps.ts";

export const root = join(import.meta.dir, "..");

const BLOCK = /<!-- generated: ([a-z]+) ([a-z]+) -->\n[\s\S]*?<!-- end generated -->/g;

/** README.md and every page under docs/, as paths from the repository's root. */
export function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith(".md") ? [path] : [];
    });
  return ["README.md", ...walk("docs")];
}

const width = (text: string) => [...text].length;

/**
 * A markdown table, its columns padded as Biome formats markdown (so `biome check` passes);
 * `|` inside a cell is escaped so it stays one cell.
 */
function table(head: string[], rows: string[][], file: string): string {
  const cells = [head, ...rows].map((row) =>
    row.map((cell) => relinked(cell, file).replaceAll("|", "\\|")),
  );
  const widths = head.map((_, i) => Math.max(3, ...cells.map((row) => width(row[i] ?? ""))));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => cell + " ".repeat((widths[i] ?? 0) - width(cell))).join(" | ")} |`;
  const [first = [], ...rest] = cells;
  return [line(first), line(widths.map((w) => "-".repeat(w))), ...rest.map(line)].join("\n");
}

const code = (value: unknown) => `\`${String(value)}\``;

function defaultOf(schema: VariableSchema): string {
  if (schema.default === undefined) return "unset";
  if (schema.default === "") return "empty";
  return code(schema.default);
}

/** What the schema accepts, where it says it in a few words: a range or the allowed values. */
function valuesOf(schema: VariableSchema): string {
  if (schema.anyOf) return schema.anyOf.map((option) => code(option.const)).join(", ");
  if (schema.type === "boolean") return "`true`, `false`";
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    return `${schema.minimum}–${schema.maximum}`;
  }
  return "";
}

function configTable(variables: [string, VariableSchema][], file: string): string {
  return table(
    ["Variable", "Default", "Values", "Description"],
    variables.map(([name, schema]) => {
      if (!schema.description) throw new Error(`${name} has no description in its schema`);
      return [code(name), defaultOf(schema), valuesOf(schema), schema.description];
    }),
    file,
  );
}

function problemTable(problems: Record<string, ProblemEntry>, file: string): string {
  return table(
    ["Code", "Status", "Title", "When"],
    Object.entries(problems).map(([name, entry]) => [
      code(name),
      String(entry.status),
      entry.title,
      entry.description,
    ]),
    file,
  );
}

const seconds = (ms: number) => `${ms / 1_000} s`;
const bytes = (n: number) =>
  n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n.toLocaleString("en")} bytes`;

function routesTable(file: string): string {
  const routes = routingTable(parseEnv(GatewayEnv, {}));
  return table(
    ["Path (and below)", "Upstream", "Default address", "Timeout", "Body limit"],
    routes.map((route) => [
      route.fallback ? "every other path" : route.prefixes.map(code).join(", "),
      route.upstream,
      code(route.target),
      seconds(route.timeoutMs),
      bytes(route.maxBodyBytes),
    ]),
    file,
  );
}

const common = new Set(Object.keys(commonEnv));

function appOf(name: string) {
  const app = APPS.find((candidate) => candidate.name === name);
  if (!app) throw new Error(`no app "${name}" (scripts/apps.ts)`);
  return app;
}

/** The table a marker names, as it reads in `file` (its links start from the file's folder). */
export function generated(kind: string, subject: string, file = "README.md"): string {
  if (kind === "config" && subject === "common") {
    return configTable(Object.entries(commonEnv as Record<string, VariableSchema>), file);
  }
  if (kind === "config") {
    const { env } = appOf(subject);
    return configTable(
      Object.entries(env.properties).filter(([name]) => !common.has(name)),
      file,
    );
  }
  if (kind === "errors" && subject === "platform") return problemTable(problemCatalog, file);
  if (kind === "errors") return problemTable(appOf(subject).problems, file);
  if (kind === "routes" && subject === "gateway") return routesTable(file);
  throw new Error(`unknown generated table "${kind} ${subject}"`);
}

/**
 * Descriptions link from the repository's root (`docs/decisions.md#metrics`); in a page under
 * docs/ the same link must start from the page's folder.
 */
function relinked(text: string, file: string): string {
  return text.replace(/\]\((?![a-z]+:|#)([^)\s]+)\)/g, (_, target: string) => {
    const [path = "", anchor] = target.split("#");
    const from = relative(dirname(join(root, file)), join(root, path)) || ".";
    return `](${from}${anchor === undefined ? "" : `#${anchor}`})`;
  });
}

/** The file's text with every generated part written afresh. */
export function render(file: string, text: string): string {
  return text.replace(BLOCK, (_, kind: string, subject: string) =>
    [
      `<!-- generated: ${kind} ${subject} -->`,
      generated(kind, subject, file),
      "<!-- end generated -->",
    ].join("\n"),
  );
}

if (import.meta.main) {
  for (const file of markdownFiles()) {
    const text = readFileSync(join(root, file), "utf8");
    const written = render(file, text);
    if (written !== text) {
      writeFileSync(join(root, file), written);
      console.log(`rewrote ${file}`);
    }
  }
}
