/**
 * Debian's Chromium driven by playwright-core (no browser download: it is the system one).
 * A fresh profile per run, and nothing in the background that would reach the network.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export type { Page };

/**
 * axe-core's minified build (650 KB; `axe.source` is the 1.5 MB readable one): Chromium parses
 * it again in every document it is checked in, a third of a second each time on CI's machine.
 */
const AXE_SOURCE = await Bun.file(require.resolve("axe-core/axe.min.js")).text();

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
/** What a browser test's name says when it is skipped for want of Chromium. */
export const NO_CHROMIUM = `skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`;
export const hasBubblewrap = Bun.which("bwrap") !== null;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "web-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: DESKTOP,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type ErrorWatch = {
  /**
   * The failed statuses the page is expected to meet (`/status of 404/`): Chromium logs every
   * non-2xx fetch as a console error, and any other console error is recorded. It is held
   * against the message and the resource's address after it, so it can name one resource.
   */
  expected?: RegExp;
  /** Script errors that are not the page's (Chromium's own PDF viewer). */
  notOurs?: (error: Error) => boolean;
  /** Where they are recorded (several pages into one list); by default a new one. */
  into?: string[];
};

/** Every CSP refusal and uncaught error a page reports: a page that works must have none. */
export function watchForErrors(page: Page, watch: ErrorWatch = {}): string[] {
  const errors = watch.into ?? [];
  page.on("pageerror", (error) => {
    if (!watch.notOurs?.(error)) errors.push(`pageerror: ${error.stack ?? error.message}`);
  });
  page.on("console", (message) => {
    const said = `${message.text()} ${message.location().url}`;
    if (message.type() === "error" && !watch.expected?.test(said)) errors.push(`console: ${said}`);
  });
  return errors;
}

type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown }[];
};

/**
 * axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules (and its best practices) on the page as it is now. Injected through the DevTools
 * protocol, which the page's CSP does not govern, so the CSP stays on while it runs.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Once per document: a page checked again before it navigates still has it.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const run = (
      globalThis as unknown as {
        axe: { run: (options: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe.run;
    const result = await run({
      runOnly: {
        type: "tag",
        // WCAG 2.2 AA too (wcag22aa: target size, 2.5.8); 2.2's A level adds no axe rule.
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      },
    });
    return result.violations;
  });
  return (violations as AxeViolation[]).map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
  );
}

/**
 * A browser whose pages run on Playwright's clock, which runs as the real one until a test moves
 * it on. It is installed for a whole context, hence a browser of its own.
 */
export async function launchWithClock(): ReturnType<typeof launch> {
  const browser = await launch();
  await browser.context.clock.install();
  return browser;
}

export const SCREENSHOT_DIR = join(import.meta.dir, "..", "..", "test-output", "screenshots");

/**
 * Screenshots are taken only when asked for (`bun run screenshots`, which says
 * WEB_TEST_SCREENSHOTS=on): they are for a person to look at and nothing asserts on them, so the
 * check spends no time on them (a tenth of the browser tests' time when they were always on).
 */
export const TAKE_SCREENSHOTS = process.env.WEB_TEST_SCREENSHOTS === "on";

/** Desktop and phone screenshots of the page as it is, for a person to review. */
export async function screenshots(
  page: Page,
  name: string,
  /** Waits, after each change of width, for what redraws on its own (a PDF viewer). */
  settle?: (page: Page) => Promise<void>,
): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  for (const [label, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await settle?.(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}
