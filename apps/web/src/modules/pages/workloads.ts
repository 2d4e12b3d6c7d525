import { BENCHMARK_TYPES, type BenchmarkType } from "@platform/contracts/benchmark";
import { WORKLOADS } from "../../client/bench/workloads.ts";
import { escapeHtml } from "./escape.ts";

/**
 * The bench page's "what each workload does": the words, and the source of the kernel that
 * really runs, read from the bench app's package (`@platform/bench/kernels/*`) when the site
 * starts, so the page cannot show code other than what is measured.
 */
const SOURCES: Record<BenchmarkType, string> = Object.fromEntries(
  await Promise.all(
    BENCHMARK_TYPES.map(async (type) => {
      const path = Bun.resolveSync(
        `@platform/bench/kernels/${WORKLOADS[type].file}`,
        import.meta.dir,
      );
      return [type, await Bun.file(path).text()] as const;
    }),
  ),
) as Record<BenchmarkType, string>;

export function renderWorkloads(): string {
  const items = BENCHMARK_TYPES.map((type) => {
    const { title, summary, file } = WORKLOADS[type];
    return `<section class="workload" id="workload-${type}" aria-labelledby="workload-${type}-heading" data-testid="workload">
<h3 id="workload-${type}-heading"><code>${type}</code>: ${escapeHtml(title)}</h3>
<p>${escapeHtml(summary)}</p>
<details><summary>Its source, <code>apps/bench/src/kernels/${file}</code></summary>
<pre class="source" tabindex="0" aria-label="Source of the ${type} workload"><code>${escapeHtml(SOURCES[type])}</code></pre></details>
</section>`;
  }).join("\n");
  return `<section class="workloads" aria-labelledby="workloads-heading">
<h2 id="workloads-heading">What each workload does</h2>
<p>Every run times 10,000 iterations after 10,000 untimed ones that warm the JIT up, in a fresh worker on the server.</p>
${items}
</section>`;
}
