/** When a failed request is sent again (createClient's `retry`). */
export type RetryOptions = {
  /** Further attempts after the first; 0 turns retrying off. Default 2. */
  retries?: number;
  /** First wait when the answer names none (doubling each time). Default 250 ms. */
  baseDelayMs?: number;
  /** Longest wait; an answer asking for longer (Retry-After) is handed back, not waited for. Default 10 s. */
  maxDelayMs?: number;
};

/** Answers that say "not now": a limit, an unreachable or overloaded service, a timeout. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Only a request that can run twice without harm is sent again: an idempotent method, or one
 * carrying an Idempotency-Key (the payments route answers a repeat with the first answer).
 */
export const isIdempotent = (request: Request) =>
  IDEMPOTENT_METHODS.has(request.method) || request.headers.has("idempotency-key");

export const isRetryableStatus = (status: number) => RETRYABLE_STATUSES.has(status);

/** Retry-After in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined if neither. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before attempt `attempt + 1` (attempt counts from 1): what the answer asked
 * for, else an exponential backoff; undefined when the answer asks for more than `maxDelayMs`.
 */
export function delayBefore(
  attempt: number,
  response: Response | undefined,
  options: Required<RetryOptions>,
): number | undefined {
  const asked = retryAfterMs(response?.headers.get("retry-after") ?? null);
  const delay = asked ?? options.baseDelayMs * 2 ** (attempt - 1);
  return delay > options.maxDelayMs
    ? asked === undefined
      ? options.maxDelayMs
      : undefined
    : delay;
}
