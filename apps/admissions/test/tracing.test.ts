/**
 * One trace from the gateway to the database, across real processes: the gateway and admissions
 * started as `bun run start` starts them, exporting to a stand-in OTLP collector. Spans are held
 * for a minute (OTEL_BSP_SCHEDULE_DELAY), so what arrives was sent by the SIGTERM shutdown.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  type ReceivedSpan,
  startOtlpReceiver,
  waitForHttp,
} from "@platform/server/testing";
import { testDatabaseTarget } from "./support.ts";

const APPS = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "admissions-tracing-"));
const target = await testDatabaseTarget(join(dir, "admissions.sqlite"));
const collector = await startOtlpReceiver();
const ports = { gateway: await freePort(), admissions: await freePort(), dead: await freePort() };

const traced = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
  OTEL_BSP_SCHEDULE_DELAY: "60000",
  // Every trace recorded, whatever the default ratio.
  OTEL_TRACES_SAMPLER_ARG: "1",
};
const start = (app: string, env: Record<string, string>) =>
  Bun.spawn(["bun", "run", "start"], { cwd: join(APPS, app), env, stdout: "pipe", stderr: "pipe" });
const admissions = start("admissions", {
  ...traced,
  ...target.env,
  ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
  ADMISSIONS_PORT: String(ports.admissions),
  ADMISSIONS_DOCUMENTS_DIR: join(dir, "documents"),
});
const gateway = start("gateway", {
  ...traced,
  GATEWAY_PORT: String(ports.gateway),
  ADMISSIONS_URL: `http://127.0.0.1:${ports.admissions}`,
  LEADERBOARD_PORT: String(ports.dead),
  RUNNER_PORT: String(ports.dead),
  BENCH_PORT: String(ports.dead),
  WEB_PORT: String(ports.dead),
});

afterAll(async () => {
  for (const proc of [admissions, gateway]) if (proc.exitCode === null) proc.kill("SIGTERM");
  await Promise.all([admissions.exited, gateway.exited]);
  await collector.close();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

type LogLine = Record<string, unknown>;
const logLines = async (proc: typeof gateway): Promise<LogLine[]> =>
  (await new Response(proc.stdout).text())
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

test("a request through the gateway that reads the database is one trace, and its log lines name it", async () => {
  await waitForHttp(`http://127.0.0.1:${ports.admissions}/health/live/`, 20_000);
  await waitForHttp(`http://127.0.0.1:${ports.gateway}/gateway/live`, 20_000);
  // A search of its own: never in the catalog cache (Redis may be shared across runs), so the
  // database is read; and the query string must not reach the spans.
  const term = `term${crypto.randomUUID().slice(0, 8)}`;
  const url = `http://127.0.0.1:${ports.gateway}/api/v1/catalog/programs/?search=${term}`;
  const response = await fetch(url, { headers: { "x-request-id": "tracing-e2e-1" } });
  expect(response.status).toBe(200);

  // Nothing has been sent yet (a minute's delay): the shutdown sends it.
  expect(collector.spans()).toEqual([]);
  gateway.kill("SIGTERM");
  admissions.kill("SIGTERM");
  expect(await gateway.exited).toBe(0);
  expect(await admissions.exited).toBe(0);
  const spans = collector.spans();

  const of = (service: string, kind: number) =>
    spans.filter((span) => span.service === service && span.kind === kind);
  const edge = of("gateway", 2).find(
    (span) => span.attributes["url.path"] === "/api/v1/catalog/programs/",
  );
  expect(edge).toMatchObject({ name: "GET /*" });
  expect(edge?.parentSpanId).toBeUndefined();
  const traceId = edge?.traceId ?? "missing";
  const inTrace = spans.filter((span) => span.traceId === traceId);

  const attempt = inTrace.find((span) => span.service === "gateway" && span.kind === 3);
  expect(attempt).toMatchObject({ name: "GET", parentSpanId: edge?.spanId });
  const app = inTrace.find((span) => span.service === "admissions" && span.kind === 2);
  expect(app).toMatchObject({
    name: "GET /api/v1/catalog/programs/",
    parentSpanId: attempt?.spanId,
    attributes: { "http.route": "/api/v1/catalog/programs/", "http.response.status_code": 200 },
  });
  const system = process.env.TEST_DATABASE_URL ? "postgresql" : "sqlite";
  const query = inTrace.find((span) => span.attributes["db.system.name"] === system);
  expect(query).toMatchObject({
    service: "admissions",
    name: "SELECT",
    attributes: { "db.system": system },
  });
  expect(ancestors(query, spans)).toContain(app?.spanId ?? "missing");

  expect(JSON.stringify(spans)).not.toContain(term);
  // With Redis (the PostgreSQL + Redis pass), its commands are spans of the request too: the
  // catalog cache's GET, by command name only.
  if (process.env.TEST_REDIS_URL) {
    const redis = inTrace.filter((span) => span.attributes["db.system.name"] === "redis");
    expect(redis.map((span) => span.name)).toContain("GET");
    for (const span of redis) expect(ancestors(span, spans)).toContain(app?.spanId ?? "missing");
  }

  // Background jobs query the database outside any request: no span of their own.
  const sql = spans.filter((span) => span.attributes["db.system.name"] === system);
  for (const span of sql) expect(span.parentSpanId).toBeDefined();

  // Both processes' lines for the request carry its request id and the one trace id.
  for (const [proc, service] of [
    [gateway, "gateway"],
    [admissions, "admissions"],
  ] as const) {
    const lines = (await logLines(proc)).filter((line) => line.requestId === "tracing-e2e-1");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatchObject({ service, traceId });
    const own = service === "gateway" ? edge : app;
    expect(lines.find((line) => line.msg === "request")).toMatchObject({ spanId: own?.spanId });
  }
});

/** The span ids above `span`, up to its trace's root. */
function ancestors(span: ReceivedSpan | undefined, all: ReceivedSpan[]): string[] {
  const ids: string[] = [];
  let parent = span?.parentSpanId;
  while (parent) {
    ids.push(parent);
    parent = all.find((candidate) => candidate.spanId === parent)?.parentSpanId;
  }
  return ids;
}
