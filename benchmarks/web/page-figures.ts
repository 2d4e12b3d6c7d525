/**
 * What the web benchmarks read off a page in Chromium. The callbacks run in the page; the
 * root tsconfig has no DOM library, so the browser types they use are declared here.
 */
import type { Page } from "../../apps/web/test/browser/chromium.ts";

type ResourceTiming = { name: string; encodedBodySize: number; startTime: number };

/**
 * Gzip bytes of the scripts the page loaded, as transferred: `first`, everything it fetched to
 * show itself, and `later`, what it asked for only after its first paint (the playground's
 * editor extensions and TypeScript worker), from the "after-first-paint" mark the page sets
 * (apps/web/src/client/shared/after-first-paint.ts). A page without the mark counts all as first.
 */
export const scriptBytes = (page: Page) =>
  page.evaluate(() => {
    const painted = performance.getEntriesByName("after-first-paint")[0]?.startTime;
    const from = painted ?? Number.POSITIVE_INFINITY;
    let first = 0;
    let later = 0;
    for (const entry of performance.getEntriesByType("resource") as unknown as ResourceTiming[]) {
      if (!new URL(entry.name).pathname.endsWith(".js")) continue;
      if (entry.startTime < from) first += entry.encodedBodySize;
      else later += entry.encodedBodySize;
    }
    return { first, later };
  });
