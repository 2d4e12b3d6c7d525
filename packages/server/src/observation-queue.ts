/**
 * Observations queued on the request path and handed to prom-client in bulk: every `size`
 * records, and before every scrape (the metrics' `collect`), so what /metrics shows is exact.
 *
 * Why: prom-client's `observe` and `inc` validate the labels and build a key string from them
 * on every call. In a tight loop that is 0.2–0.3 µs; one call at a time between the server's
 * own work (cold code, cold data) it cost the gateway far more: counting three observations
 * per proxied request took 11 % of its throughput (benchmarks/gateway/observability.ts, the
 * gateway alone on a CPU, docs/performance.md). Queued, a request only stores three strings
 * and a number; prom-client still does the counting, the buckets and the exposition.
 */
export class ObservationQueue {
  private readonly firsts: string[] = [];
  private readonly seconds: string[] = [];
  private readonly thirds: string[] = [];
  private readonly values: number[] = [];
  private length = 0;

  constructor(
    private readonly apply: (first: string, second: string, third: string, value: number) => void,
    private readonly size = 1024,
  ) {}

  add(first: string, second: string, third: string, value: number): void {
    const at = this.length++;
    this.firsts[at] = first;
    this.seconds[at] = second;
    this.thirds[at] = third;
    this.values[at] = value;
    if (this.length === this.size) this.flush();
  }

  /** Hands everything queued to prom-client. */
  flush(): void {
    const { length, firsts, seconds, thirds, values } = this;
    this.length = 0;
    for (let at = 0; at < length; at++) {
      this.apply(firsts[at] ?? "", seconds[at] ?? "", thirds[at] ?? "", values[at] ?? 0);
    }
  }
}
