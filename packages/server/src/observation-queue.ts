/**
 * Observations queued on the request path and handed to prom-client in bulk: every `size`
 * records, and before every scrape (the metrics' `collect`), so what /metrics shows is exact.
 * A flush first adds them up per label set (how many, their sum, how many per bucket), then
 * hands prom-client one update per label set instead of one per observation.
 *
 * Why: prom-client's `observe` and `inc` validate the labels and build a key string from them
 * on every call. In a tight loop that is 0.2–0.3 µs; one call at a time between the server's
 * own work (cold code, cold data) it cost the gateway far more: counting three observations
 * per proxied request took 11 % of its throughput (benchmarks/gateway/observability.ts, the
 * gateway alone on a CPU, docs/performance.md). Queued, a request only stores three strings
 * and a number; handed over one by one, the queue still cost several per cent (side by side,
 * 2026-11-27); added up first, prom-client is called a few times per flush.
 */
import { Histogram, type LabelValues } from "prom-client";

/** Observations of one label set, added up. */
export type Tallied = {
  count: number;
  sum: number;
  /** How many fell in each bucket (not cumulative), in the order of the bounds; above the last, none. */
  buckets: number[];
};

type Group = Tallied & { first: string; second: string; third: string };

export class ObservationQueue {
  private readonly firsts: string[] = [];
  private readonly seconds: string[] = [];
  private readonly thirds: string[] = [];
  private readonly values: number[] = [];
  private length = 0;

  constructor(
    private readonly apply: (first: string, second: string, third: string, t: Tallied) => void,
    /** The histogram's bucket bounds, ascending. */
    private readonly bounds: readonly number[],
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

  /** Adds up everything queued per label set and hands it to prom-client. */
  flush(): void {
    const { length, firsts, seconds, thirds, values, bounds } = this;
    this.length = 0;
    // Nested maps: no key string built per observation.
    const groups = new Map<string, Map<string, Map<string, Group>>>();
    for (let at = 0; at < length; at++) {
      const first = firsts[at] ?? "";
      const second = seconds[at] ?? "";
      const third = thirds[at] ?? "";
      const value = values[at] ?? 0;
      let bySecond = groups.get(first);
      if (!bySecond) {
        bySecond = new Map();
        groups.set(first, bySecond);
      }
      let byThird = bySecond.get(second);
      if (!byThird) {
        byThird = new Map();
        bySecond.set(second, byThird);
      }
      let group = byThird.get(third);
      if (!group) {
        group = { first, second, third, count: 0, sum: 0, buckets: bounds.map(() => 0) };
        byThird.set(third, group);
      }
      group.count++;
      group.sum += value;
      for (let bucket = 0; bucket < bounds.length; bucket++) {
        if (value <= (bounds[bucket] ?? 0)) {
          group.buckets[bucket] = (group.buckets[bucket] ?? 0) + 1;
          break;
        }
      }
    }
    for (const bySecond of groups.values()) {
      for (const byThird of bySecond.values()) {
        for (const g of byThird.values()) this.apply(g.first, g.second, g.third, g);
      }
    }
  }
}

/** prom-client's state for one label set of a histogram. */
type Entry = { labels: object; sum: number; count: number; bucketValues: Record<string, number> };

/**
 * A prom-client histogram that also takes observations already added up (`observeTallied`).
 * prom-client has no such call, so this adds to the label set's entry in its own table, the
 * one `observe` updates and the exposition reads: pinned prom-client (15.1.3), and
 * metrics.test.ts checks the exposition against `observe`'s for the same values.
 */
export class TalliedHistogram<T extends string> extends Histogram<T> {
  /** Each label set's entry, found once (by our key) and checked against the table each time. */
  private readonly found = new Map<string, { hash: string; entry: Entry }>();

  observeTallied(key: string, labels: LabelValues<T>, tallied: Tallied): void {
    const { hashMap, upperBounds } = this as unknown as {
      hashMap: Record<string, Entry>;
      upperBounds: number[];
    };
    let known = this.found.get(key);
    // Absent the first time, and after a reset() empties the table.
    if (!known || hashMap[known.hash] !== known.entry) {
      known = this.entryOf(labels, hashMap);
      this.found.set(key, known);
    }
    const { entry } = known;
    entry.count += tallied.count;
    entry.sum += tallied.sum;
    for (const [at, bound] of upperBounds.entries()) {
      const count = tallied.buckets[at] ?? 0;
      if (count > 0) entry.bucketValues[bound] = (entry.bucketValues[bound] ?? 0) + count;
    }
  }

  private entryOf(labels: LabelValues<T>, hashMap: Record<string, Entry>) {
    const same = ([, entry]: [string, Entry]) =>
      Object.entries(labels).every(([name, value]) => (entry.labels as never)[name] === value);
    let match = Object.entries(hashMap).find(same);
    if (!match) {
      this.zero(labels);
      match = Object.entries(hashMap).find(same);
    }
    if (!match) throw new Error(`no histogram entry for ${JSON.stringify(labels)}`);
    return { hash: match[0], entry: match[1] };
  }
}
