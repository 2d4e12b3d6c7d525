import type { KernelFactory } from "./types.ts";

const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
const PATHS = ["/api/orders", "/api/users/me", "/api/catalog/programs", "/health/ready"] as const;
const AGENTS = ["Mozilla/5.0 (X11; Linux x86_64)", "curl/8.5.0", "okhttp/4.12.0"] as const;
const NEEDLES = ["status=5", "ms=1", "/api/", "curl", "Linux", "user=42"] as const;
const SERVER_ERROR = /status=5\d\d/;
const LINES_PER_ITERATION = 3;

/**
 * One access-log line: built from its fields (template literal), split into fields, searched
 * (indexOf and includes for six needles over the line, startsWith over every field, a regular
 * expression test) and rewritten (replaceAll of the API prefix).
 */
function processLine(n: number): number {
  const line =
    `2025-06-${String(1 + (n % 28)).padStart(2, "0")}T12:00:00Z INFO ` +
    `method=${METHODS[n % 4]} path=${PATHS[(n >> 2) % 4]}?page=${n % 50} ` +
    `status=${n % 13 === 0 ? 503 : 200} ms=${(n % 997) / 10} user=${n % 100} ` +
    `agent="${AGENTS[n % 3]}" request=req-${n.toString(36)}`;
  const fields = line.split(" ");
  let score = fields.length;
  for (const needle of NEEDLES) score += line.indexOf(needle) + (line.includes(needle) ? 1 : 0);
  for (const field of fields) {
    for (const needle of NEEDLES) if (field.startsWith(needle)) score += field.length;
  }
  if (SERVER_ERROR.test(line)) score += 500;
  return score + line.replaceAll("/api/", "/api/v2/").length;
}

/**
 * String manipulation: three different ~200-character access-log lines per iteration. Regex
 * `exec` and regex `replace` are left out on purpose: their match objects made young-generation
 * collections 13-16% of the iteration in our measurements, so the figure would have measured
 * the collector (and whether a harness counts it) more than string handling.
 */
export const stringKernel: KernelFactory = () => (iteration) => {
  let score = 0;
  for (let k = 0; k < LINES_PER_ITERATION; k++) {
    score += processLine(iteration * LINES_PER_ITERATION + k);
  }
  return score;
};
