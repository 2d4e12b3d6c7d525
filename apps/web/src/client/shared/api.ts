import type { BenchmarkRequest, BenchmarkResult } from "@platform/contracts/benchmark";
import type { Leaderboard, ScoreSubmission, SubmittedEntry } from "@platform/contracts/leaderboard";
import type { Problem } from "@platform/contracts/problem";
import type { RunRequest, RunResult } from "@platform/contracts/run";
import { type RateLimitState, readRateLimit } from "./rate-limit.ts";

// Types only from the contracts: their runtime schemas would pull Elysia into the browser.

export type ApiSuccess<T> = { ok: true; status: number; data: T; rateLimit: RateLimitState | null };
export type ApiFailure = {
  ok: false;
  status: number;
  problem: Problem;
  /** Seconds from Retry-After, when the server sent one (429, 503). */
  retryAfter: number | null;
  rateLimit: RateLimitState | null;
};
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

const isProblem = (value: unknown): value is Problem =>
  typeof value === "object" && value !== null && "code" in value && "detail" in value;

/** A failure that never reached an API (offline, gateway down) in the same shape as the rest. */
const networkProblem = (detail: string): Problem => ({
  type: "about:blank",
  title: "Network error",
  status: 0,
  detail,
  code: "NETWORK_ERROR",
  requestId: "",
});

async function call<T>(
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    return {
      ok: false,
      status: 0,
      problem: networkProblem(`The server could not be reached (${String(error)})`),
      retryAfter: null,
      rateLimit: null,
    };
  }
  const rateLimit = readRateLimit(res.headers);
  const json: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, status: res.status, data: json as T, rateLimit };
  const retry = Number(res.headers.get("retry-after"));
  return {
    ok: false,
    status: res.status,
    problem: isProblem(json)
      ? json
      : { ...networkProblem(`HTTP ${res.status} without a problem body`), status: res.status },
    retryAfter:
      Number.isFinite(retry) && retry >= 0 && res.headers.has("retry-after") ? retry : null,
    rateLimit,
  };
}

export const api = {
  leaderboard: () => call<Leaderboard>("GET", "/api/leaderboard"),
  submitScore: (entry: ScoreSubmission) => call<SubmittedEntry>("POST", "/api/leaderboard", entry),
  run: (request: RunRequest) => call<RunResult>("POST", "/api/run", request),
  benchmark: (request: BenchmarkRequest) =>
    call<BenchmarkResult>("POST", "/api/benchmark", request),
};
