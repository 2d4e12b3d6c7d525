#!/usr/bin/env bun
/**
 * The site's budgets, measured in Debian's Chromium through the real gateway on loopback:
 *   - JavaScript per page, gzip bytes as transferred before the page is ready (its module
 *     script and the chunks it imports; budget 100 KB; the playground's 150 KB; the admissions
 *     portal's pages 150 KB, signed out and, for an applicant with a draft, signed in:
 *     applicant-pages.ts), and what the page loads after its first paint,
 *   - the playground's TypeScript worker: its gzip size, and when the checker is ready,
 *   - first contentful paint, cold cache and warm (budget 300 ms),
 *   - the game's frame rate while it runs (budget: steady 60 fps),
 *   - the staff queue with 10,000 applications (staff-queue.ts, which also runs alone).
 * Prints what it measured; asserts nothing (DEVELOPERS.md: figures come from scripts).
 *
 *   bun benchmarks/web/budgets.ts [--runs 5] [--seconds 5]
 *
 * Needs /usr/bin/chromium (apt-get install -y chromium). Ports: 4100-4199 (WEB_TEST_PORTS).
 */
import { parseArgs } from "node:util";
import { admissionsBackend } from "../../apps/web/test/browser/admissions.ts";
import { hasChromium, launch, type Page } from "../../apps/web/test/browser/chromium.ts";
import { startStack } from "../../apps/web/test/browser/stack.ts";
import { median } from "../stats.ts";
import { applicantPages } from "./applicant-pages.ts";
import { scriptBytes } from "./page-figures.ts";
import { measureStaffQueue } from "./staff-queue.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, seconds: { type: "string", default: "5" } },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
if (!hasChromium) {
  console.error(
    "budgets: /usr/bin/chromium is missing (apt-get install -y chromium); nothing measured",
  );
  process.exit(1);
}

const PAGES = [
  { path: "/", ready: "main h1", jsBudgetKB: 100 },
  {
    path: "/game/",
    ready: '[data-testid="leaderboard-row"], [data-testid="leaderboard"]',
    jsBudgetKB: 100,
  },
  { path: "/playground/", ready: '[data-testid="code"]', jsBudgetKB: 150 },
  { path: "/bench/", ready: '[data-testid="bench-run"]', jsBudgetKB: 100 },
  // The portal (issue 16): its budget is 150 KB; the admissions app runs behind it.
  { path: "/portal/", ready: '[data-testid="program-list"]', jsBudgetKB: 150 },
  { path: "/portal/login", ready: '[data-testid="login-submit"]', jsBudgetKB: 150 },
  { path: "/portal/register", ready: '[data-testid="register-submit"]', jsBudgetKB: 150 },
  { path: "/account/forgot-password", ready: '[data-testid="forgot-email"]', jsBudgetKB: 150 },
];
const FCP_BUDGET_MS = 300;

// The callbacks below run in the page; the root tsconfig has no DOM library, so the two browser
// globals they use are declared here.
declare const requestAnimationFrame: (callback: (now: number) => void) => number;
declare class PerformanceObserver {
  constructor(callback: (list: { getEntries(): { duration: number }[] }) => void);
  observe(options: { type: string }): void;
  disconnect(): void;
}

/** The bytes of a URL as sent with gzip (the body is not decompressed on the way). */
async function workerBytes(url: string): Promise<{ gzip: number; raw: number }> {
  const res = await fetch(url, { headers: { "accept-encoding": "gzip" }, decompress: false });
  const gzip = new Uint8Array(await res.arrayBuffer());
  return { gzip: gzip.length, raw: Bun.gunzipSync(gzip).length };
}

const firstContentfulPaint = (page: Page) =>
  page.evaluate(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
  );

type FrameWindow = {
  fps: number;
  p99Ms: number;
  maxMs: number;
  frames: number;
  /** Main-thread tasks over 50 ms in the window (Long Tasks API): the page's own work. */
  longTasks: number;
  longestTaskMs: number;
};

/**
 * rAF callbacks over `ms` while the game runs: frames per second and the worst gaps, with the
 * page's long tasks beside them, so a slow frame can be told apart: a long task is the page's
 * own work; a gap with none is the browser or the machine (other work on its cores).
 */
const frameRate = (page: Page, ms: number) =>
  page.evaluate(
    (duration) =>
      new Promise<FrameWindow>((resolve) => {
        const tasks: number[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) tasks.push(entry.duration);
        });
        observer.observe({ type: "longtask" });
        const gaps: number[] = [];
        let last = performance.now();
        const start = last;
        const tick = (now: number) => {
          gaps.push(now - last);
          last = now;
          if (now - start < duration) requestAnimationFrame(tick);
          else {
            observer.disconnect();
            const sorted = gaps.slice(1).sort((a, b) => a - b);
            resolve({
              frames: sorted.length,
              fps: (sorted.length / (now - start)) * 1000,
              p99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
              maxMs: sorted.at(-1) ?? 0,
              longTasks: tasks.length,
              longestTaskMs: Math.max(0, ...tasks),
            });
          }
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );

// The portal's pages need the admissions app (a throwaway SQLite database; emails to the log).
const admissions = await admissionsBackend();
const stack = await startStack({
  apps: ["leaderboard", "runner", "bench", "admissions"],
  env: { runner: { RUNNER_POOL_SIZE: "1" } },
  before: (base) => ({ admissions: admissions.env(base) }),
});
const browser = await launch();
try {
  console.log(`site budgets, Chromium via the gateway at ${stack.base}; median of ${runs} loads\n`);
  console.log(
    `${"page".padEnd(27)}JS gzip KB (budget)   FCP cold ms   FCP warm ms (budget 300)   after paint KB`,
  );
  type Measured = (typeof PAGES)[number] & { label?: string };
  const measure = async ({ path, ready, jsBudgetKB, label = path }: Measured) => {
    const cold: number[] = [];
    const warm: number[] = [];
    let bytes = { first: 0, later: 0 };
    for (let i = 0; i < runs; i++) {
      // Cold: a new page with the HTTP cache off; warm: the same page loaded again with it on.
      const page = await browser.context.newPage();
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await page.goto(stack.base + path);
      await page.waitForSelector(ready, { state: "attached" });
      cold.push(await firstContentfulPaint(page));
      // What the page fetches once it has painted (the playground's editor extensions) arrives
      // once the browser is idle; wait until the network is quiet.
      await page.waitForLoadState("networkidle");
      bytes = await scriptBytes(page);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
      await page.goto(stack.base + path);
      await page.goto(stack.base + path);
      await page.waitForSelector(ready, { state: "attached" });
      warm.push(await firstContentfulPaint(page));
      await page.close();
    }
    const kb = bytes.first / 1024;
    console.log(
      `${label.padEnd(26)} ${kb.toFixed(1).padStart(6)} (${jsBudgetKB})${kb > jsBudgetKB ? " OVER" : ""}`.padEnd(
        49,
      ) +
        `${median(cold).toFixed(0).padStart(8)}${median(cold) > FCP_BUDGET_MS ? " OVER" : "     "}` +
        `${median(warm).toFixed(0).padStart(12)}${median(warm) > FCP_BUDGET_MS ? " OVER" : "     "}` +
        `${(bytes.later / 1024).toFixed(1).padStart(18)}`,
    );
  };
  for (const page of PAGES) await measure(page);
  console.log("signed in, an applicant with a draft (…: /portal/applications):");
  for (const page of await applicantPages(browser.context, stack.base, admissions)) {
    await measure({
      ...page,
      label: page.path.replace(/^\/portal\/applications\/[\w-]{36}/, "…/<id>"),
    });
  }

  // The playground's type checker: the worker's size, and when it is ready beside first paint.
  const playground = await browser.context.newPage();
  await playground.goto(`${stack.base}/playground/`);
  const workerUrl = await playground
    .locator('meta[name="worker-typescript"]')
    .getAttribute("content");
  await playground.locator('[data-testid="diagnostics"][data-state="checked"]').waitFor();
  const timings = await playground.evaluate(() => ({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    ready: performance.getEntriesByName("typescript-ready")[0]?.startTime ?? Number.NaN,
  }));
  await playground.close();
  if (workerUrl) {
    const size = await workerBytes(stack.base + workerUrl);
    console.log(
      `\nplayground TypeScript worker: ${(size.gzip / 1024).toFixed(1)} KB gzip ` +
        `(${(size.raw / 1024 / 1024).toFixed(2)} MB unzipped), loaded after first paint; ` +
        `first paint at ${timings.fcp.toFixed(0)} ms, checker ready at ${timings.ready.toFixed(0)} ms`,
    );
  }

  const page = await browser.context.newPage();
  await page.goto(`${stack.base}/game/`);
  await page.getByRole("button", { name: "Start" }).click();
  const windows: Awaited<ReturnType<typeof frameRate>>[] = [];
  for (let i = 0; i < Math.max(1, Math.round(seconds)); i++) {
    // A lost game keeps drawing, but start another so every window measures a running one.
    if (await page.getByTestId("game-over").isVisible()) {
      await page.getByRole("button", { name: "Play again" }).click();
    }
    windows.push(await frameRate(page, 1000));
  }
  const fps = windows.map((w) => w.fps);
  console.log(
    `\ngame: ${windows.length} one-second windows while running: fps min ${Math.min(...fps).toFixed(1)}, ` +
      `median ${median(fps).toFixed(1)}; worst frame gap p99 ${Math.max(...windows.map((w) => w.p99Ms)).toFixed(1)} ms, ` +
      `max ${Math.max(...windows.map((w) => w.maxMs)).toFixed(1)} ms (budget: steady 60 fps, 16.7 ms); ` +
      `${windows.filter((w) => w.fps >= 59).length} of ${windows.length} windows at 59 fps or more; ` +
      `page long tasks ${windows.reduce((n, w) => n + w.longTasks, 0)} ` +
      `(longest ${Math.max(...windows.map((w) => w.longestTaskMs)).toFixed(0)} ms)`,
  );
  await page.close();
} finally {
  await browser.close();
  await stack.stop();
  await admissions.cleanup();
}

// Its own stack and database: 10,000 applications would not leave the pages above as they are.
await measureStaffQueue(runs);
