import { PLAYER_NAME_MAX, RUN_CODE_MAX, RUN_TIMEOUT_MAX_MS } from "@platform/contracts/limits";
import type { ApiFailure } from "./api.ts";

/**
 * The site's words for every failure its APIs can answer (docs/errors.md), so a person reads
 * what happened and what to do, never a schema's message or a JSON pointer. English: the site's
 * pages are; the portal has its own catalogues.
 */
const BY_CODE: Record<string, string> = {
  NETWORK_ERROR: "The server could not be reached. Check your connection, then try again.",
  RATE_LIMITED: "That was a lot of tries in a short time.",
  VALIDATION_FAILED: "Something in what was sent needs changing.",
  RUNNER_BUSY: "Every sandbox is busy running other people's programs.",
  SANDBOX_UNAVAILABLE: "The sandbox cannot start programs at the moment.",
  CLIENT_RUNS_EXCEEDED: "Your earlier programs are still running; wait for them to finish.",
  SANDBOX_TIME_EXCEEDED: "Your programs have used this minute's share of sandbox time.",
  BENCHMARK_FAILED: "The benchmark did not finish on the server.",
  SERVICE_UNAVAILABLE: "The service is busy or briefly down.",
  BAD_GATEWAY: "The service behind this page did not answer.",
  GATEWAY_TIMEOUT: "The service behind this page took too long to answer.",
  INTERNAL_ERROR: "Something went wrong on the server.",
  NOT_FOUND: "The page asked for something the server does not have.",
  PAYLOAD_TOO_LARGE: "What was sent is too large.",
};

/** Field problems in words, by the field's path; the API's own words only where they are words. */
const BY_FIELD: Record<string, (message: string) => string> = {
  "/body/playerName": (message) =>
    // The leaderboard says its name rule in words ("must contain at least one visible
    // character…"); a schema message (a length past 1024) is said here instead.
    message.startsWith("must ")
      ? `Your name ${message}.`
      : `Your name must be 1 to ${PLAYER_NAME_MAX} characters.`,
  "/body/score": () => "That score is not one a game can produce.",
  "/body/code": () =>
    `The program is longer than ${RUN_CODE_MAX} characters: shorten it to run it.`,
  "/body/timeout": () => `The timeout must be a whole number from 1 to ${RUN_TIMEOUT_MAX_MS} ms.`,
  "/body/type": () => "Choose one of the listed benchmarks.",
};

export type ProblemText = {
  summary: string;
  fields: { path: string; text: string }[];
  retry: string | null;
};

export const retryText = (seconds: number) =>
  `You can try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;

export function describeProblem({ status, problem, retryAfter }: ApiFailure): ProblemText {
  const summary =
    BY_CODE[problem.code] ??
    (status >= 500
      ? (BY_CODE.INTERNAL_ERROR ?? "")
      : `The server refused the request (HTTP ${status}).`);
  const fields = (problem.errors ?? []).map(({ path, message }) => ({
    path,
    text: BY_FIELD[path]?.(message) ?? "A value sent is not accepted.",
  }));
  return { summary, fields, retry: retryAfter === null ? null : retryText(retryAfter) };
}
