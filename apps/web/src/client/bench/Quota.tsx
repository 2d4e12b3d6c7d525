import type { RateLimitState } from "../shared/rate-limit.ts";
import { BENCH_TEXT as T } from "./text.ts";

/** The bench's RateLimit quota: how many runs are left, and when Run comes back at none. */
export function Quota({ limit, wait }: { limit: RateLimitState | null; wait: number }) {
  const used = limit?.limit ? (limit.limit - limit.remaining) / limit.limit : 0;
  return (
    <div class="quota" data-testid="quota" data-remaining={limit?.remaining ?? ""}>
      {limit?.limit ? (
        <meter
          min={0}
          max={limit.limit}
          value={limit.remaining}
          low={1}
          aria-label="Runs left this minute"
        />
      ) : null}
      <p data-testid="rate-limit" aria-live="polite" data-used={used.toFixed(2)}>
        {!limit
          ? T.quotaUnknown
          : limit.remaining > 0
            ? T.quotaLeft(limit.remaining, limit.limit)
            : wait > 0
              ? T.quotaNone(limit.limit, wait)
              : T.quotaBack}
      </p>
    </div>
  );
}
