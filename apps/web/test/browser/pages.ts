import { expect, test } from "bun:test";
import { axeViolations, screenshots, watchForErrors } from "./chromium.ts";
import type { Site } from "./site.ts";

/**
 * What each page shows once its script has rendered (the home page has none). The portal's pages
 * need the admissions app: portal.test.ts checks them, with it running.
 */
const READY: Record<string, string> = {
  "/": "main h1",
  "/game/": '[data-testid="leaderboard"]',
  "/playground/": '[data-testid="code"]',
  "/bench/": '[data-testid="bench-run"]',
  "/no/such/page": "main h1",
};
const NAMES: Record<string, string> = {
  "/": "home",
  "/game/": "game",
  "/playground/": "playground",
  "/bench/": "bench",
  "/no/such/page": "not-found",
};

export function pageTests(site: () => Site) {
  test.each(Object.keys(READY))(
    "%s renders with no axe violations, no CSP refusal or script error",
    async (path) => {
      const { base, context } = site();
      const page = await context.newPage();
      const errors = watchForErrors(page, { expected: /status of 404/ });
      const res = await page.goto(base + path);
      expect(res?.status()).toBe(path === "/no/such/page" ? 404 : 200);
      await page.waitForSelector(READY[path] ?? "main");
      expect(await axeViolations(page)).toEqual([]);
      await screenshots(page, NAMES[path] ?? "page");
      // The 404 page's own status is logged by Chromium as a failed resource; nothing else may be.
      expect(errors).toEqual([]);
      await page.close();
    },
    30_000,
  );

  test("home links to the four sections, and the links work from the keyboard", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const links = await page
      .locator("main a")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(links).toEqual(["/game/", "/playground/", "/bench/", "/portal/"]);
    // First Tab stop is the skip link, which takes the keyboard past the navigation.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("/game/");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${base}/game/`);
    await page.close();
  });
}
