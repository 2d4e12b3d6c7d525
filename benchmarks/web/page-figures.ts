/**
 * What the web benchmarks read off a page in Chromium. The callbacks run in the page; the
 * root tsconfig has no DOM library, so the browser types they use are declared here.
 */
import type { Page } from "../../apps/web/test/browser/chromium.ts";

type ResourceTiming = { name: string; encodedBodySize: number };

/** Gzip bytes of every script the page loaded (entry and shared chunks), as transferred. */
export const scriptBytes = (page: Page) =>
  page.evaluate(() =>
    (performance.getEntriesByType("resource") as unknown as ResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
      .reduce((sum, entry) => sum + entry.encodedBodySize, 0),
  );
