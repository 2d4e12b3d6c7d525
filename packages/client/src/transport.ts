import { PlatformError } from "./errors.js";
import { delayBefore, isIdempotent, isRetryableStatus, type RetryOptions } from "./retry.js";

/** The admissions sign-in a client holds: what login and refresh answer. */
export type Tokens = { accessToken: string; refreshToken?: string };

/** What the transport sends with: a fetch taking a Request (the runtime's, or a test's). */
export type FetchLike = (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>;

export type TransportOptions = {
  baseUrl: string;
  fetch: FetchLike;
  retry: Required<RetryOptions>;
  /** Each attempt's deadline, to the response headers. */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  tokens: { current?: Tokens };
  /** Told of every new pair a refresh brings, to keep it (the old refresh token is spent). */
  onTokens?: (tokens: Tokens) => void;
};

const REFRESH_PATH = "/api/v1/auth/refresh/";

/** One attempt: the request with the current access token, under the attempt's deadline. */
async function attempt(template: Request, options: TransportOptions): Promise<Response> {
  // A fresh copy per attempt: a body is read once. (Node's types name clone()'s result apart.)
  const request = template.clone() as Request;
  const token = options.tokens.current?.accessToken;
  if (token && !template.headers.has("authorization")) {
    request.headers.set("authorization", `Bearer ${token}`);
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([deadline, request.signal]);
  try {
    return await options.fetch(request, { signal });
  } catch (error) {
    throw PlatformError.network(template, deadline.aborted ? deadline.reason : error);
  }
}

/** An access token the API refused as expired or revoked (not "no credentials at all"). */
async function tokenRefused(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return body?.code === "INVALID_TOKEN";
}

/**
 * Trades the refresh token for a new pair, once for every request that found the access token
 * expired at the same time (the refresh token is single-use: a second trade would be refused as
 * reused, and end the sign-in).
 */
function refresher(options: TransportOptions) {
  let pending: Promise<boolean> | undefined;
  const refresh = async (): Promise<boolean> => {
    const refreshToken = options.tokens.current?.refreshToken;
    if (!refreshToken) return false;
    const response = await options
      .fetch(
        new Request(new URL(REFRESH_PATH, options.baseUrl).href, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ refreshToken }),
          signal: AbortSignal.timeout(options.timeoutMs),
        }),
      )
      .catch(() => undefined);
    if (!response?.ok) return false;
    const pair = (await response.json()) as Tokens;
    options.tokens.current = { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
    options.onTokens?.(options.tokens.current);
    return true;
  };
  return () => {
    pending ??= refresh().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}

/**
 * The fetch the typed client calls through: the access token on every request, one refresh and
 * one more try when it has expired, idempotent requests sent again after a network failure or a
 * 429/502/503/504 (waiting what Retry-After asks, within `maxDelayMs`), and every failure to get
 * an answer thrown as a PlatformError rather than a bare TypeError.
 */
export function transport(options: TransportOptions): FetchLike {
  const refresh = refresher(options);
  // openapi-fetch calls it with the Request it built.
  return async (template) => {
    const retryable = isIdempotent(template);
    let refreshed = false;
    for (let tries = 1; ; tries++) {
      let response: Response | undefined;
      let failure: PlatformError | undefined;
      try {
        response = await attempt(template, options);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        failure = error;
      }
      if (response && !refreshed && (await tokenRefused(response)) && (await refresh())) {
        refreshed = true;
        tries--;
        continue;
      }
      const again = retryable && tries <= options.retry.retries;
      const wait = again && (failure || (response && isRetryableStatus(response.status)));
      const delay = wait ? delayBefore(tries, response, options.retry) : undefined;
      if (delay === undefined) {
        if (failure) throw failure;
        return response as Response;
      }
      await response?.body?.cancel();
      await options.sleep(delay);
    }
  };
}
