import { afterAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, launchWithClock, screenshots, watchForErrors } from "./chromium.ts";
import { LIMITS, type Site } from "./site.ts";

/** "85.4 ms" → microseconds, and the unit it was written in. */
function readTime(text: string | null): { us: number; unit: string } {
  const match = (text ?? "").match(/^([\d.,]+) (ns|µs|ms|s)$/);
  if (!match) throw new Error(`not a time with its unit: ${text}`);
  const scale: Record<string, number> = { ns: 0.001, µs: 1, ms: 1000, s: 1_000_000 };
  const unit = match[2] ?? "";
  return { us: Number((match[1] ?? "").replace(/,/g, "")) * (scale[unit] ?? Number.NaN), unit };
}

/** The unit a time of `us` microseconds must be shown in. */
const unitFor = (us: number) => (us < 1 ? "ns" : us < 1000 ? "µs" : us < 1e6 ? "ms" : "s");

/** Shown to three significant digits in its unit, and in the unit that fits. */
async function expectTime(page: Page, testId: string) {
  const element = page.getByTestId(testId);
  const exact = Number(await element.getAttribute("data-us"));
  const shown = readTime(await element.textContent());
  expect(shown.unit).toBe(unitFor(exact));
  expect(Math.abs(shown.us - exact) / exact).toBeLessThan(0.005);
}

export function benchTests(site: () => Site) {
  let browser: Awaited<ReturnType<typeof launchWithClock>> | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  test("workloads described with their source; runs by keyboard and mouse: the per-iteration headline in its unit, operations per second, chart, comparison; Run disabled at 0 left with a countdown", async () => {
    const { base } = site();
    browser = await launchWithClock();
    const page = await browser.context.newPage();
    const errors = watchForErrors(page, { expected: /status of 429/ });
    // The page below meets its 429 on purpose; so do the direct calls that use up the quota.
    // Its clock is Playwright's, so the countdown below is seen to its end without waiting out
    // the minute.
    await page.goto(`${base}/bench/`);
    await page.getByTestId("bench-empty").waitFor();
    const options = await page
      .getByTestId("bench-type")
      .locator("option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).toEqual(["json", "array", "string", "crypto"]);
    // Each workload in words, and the kernel that runs, read from the bench app.
    expect(await page.getByTestId("workload").count()).toBe(4);
    const json = page.locator("#workload-json");
    await json.locator("summary").click();
    expect(await json.locator("pre").textContent()).toContain("export const jsonKernel");
    expect(await page.getByTestId("bench-type-summary").textContent()).toContain("JSON.parse");

    // Keyboard: focus the select, pick "array" with the arrow key, Tab to Run, press Enter.
    await page.getByTestId("bench-type").focus();
    await page.keyboard.press("ArrowDown");
    expect(await page.getByTestId("bench-type").inputValue()).toBe("array");
    expect(await page.getByTestId("bench-type-summary").textContent()).toContain("128 order lines");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByTestId("bench-running").waitFor();
    await page.getByTestId("iterations").waitFor({ timeout: 60_000 });

    expect(await page.getByTestId("iterations").textContent()).toBe("10,000");
    await expectTime(page, "per-iteration");
    await expectTime(page, "execution-time");
    const total = Number(await page.getByTestId("execution-time").getAttribute("data-us"));
    const perIteration = Number(await page.getByTestId("per-iteration").getAttribute("data-us"));
    expect(Math.abs(perIteration - total / 10_000)).toBeLessThan(1e-9);
    const ops = Number((await page.getByTestId("ops-per-second").textContent())?.replace(/,/g, ""));
    expect(Math.abs(ops - 10_000 / (total / 1e6))).toBeLessThanOrEqual(1);
    for (const part of (await page.getByTestId("per-iteration-stats").textContent())?.split(
      " / ",
    ) ?? []) {
      readTime(part);
    }
    expect(await page.getByTestId("timestamp").locator("time").getAttribute("datetime")).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    expect(await page.getByTestId("rate-limit").textContent()).toMatch(
      new RegExp(`^${LIMITS.bench - 1} of ${LIMITS.bench} runs left`),
    );
    const chart = page.getByTestId("bench-chart");
    expect(await chart.textContent()).toContain("array (1)");
    expect(await chart.textContent()).toContain("Time per iteration");
    expect(await chart.textContent()).toContain("Runs this visit, by workload");
    // The bar's label is its value, in its unit.
    const bar = chart.getByTestId("bench-bar").first();
    expect(readTime(await bar.locator("text").textContent()).unit).toBe(unitFor(perIteration));

    // Mouse: the rest of the quota, on other workloads.
    for (const type of ["json", "crypto"].slice(0, LIMITS.bench - 1)) {
      await page.getByTestId("bench-type").selectOption(type);
      await page.getByTestId("bench-run").click();
      await chart.filter({ hasText: `${type} (1)` }).waitFor({ timeout: 60_000 });
    }
    const rows = page.getByTestId("compare-row");
    expect(await rows.count()).toBe(3);
    const times = await page.getByTestId("compare-times").allTextContents();
    expect(times).toContain("1.00×");
    // None left: Run is disabled and counts down, before any refusal.
    expect(await page.getByTestId("quota").getAttribute("data-remaining")).toBe("0");
    expect(await page.getByTestId("rate-limit").textContent()).toMatch(
      /^0 of \d+ runs left: Run comes back in \d+ s\.$/,
    );
    expect(await page.getByTestId("bench-run").isDisabled()).toBe(true);
    expect(await page.getByTestId("bench-run").textContent()).toMatch(/^Wait \d+ s$/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "bench-results");

    // The countdown ends and Run comes back: the page's clock moved on past the wait it showed.
    const wait = Number((await page.getByTestId("bench-run").textContent())?.match(/\d+/)?.[0]);
    await page.clock.fastForward((wait + 1) * 1000);
    await page.getByTestId("bench-run").filter({ hasText: /^Run$/ }).waitFor();
    expect(await page.getByTestId("bench-run").isDisabled()).toBe(false);
    // The server keeps its own time: whatever it has given back (nothing, unless the runs above
    // took most of a minute) is spent by someone else (direct calls); this page's Run then meets
    // the 429, said in words.
    const statuses = await page.evaluate(async (limit) => {
      const seen: number[] = [];
      for (let i = 0; i <= limit; i++) {
        const res = await fetch("/api/benchmark", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ type: "json" }),
        });
        seen.push(res.status);
        if (res.status === 429) break;
      }
      return seen;
    }, LIMITS.bench);
    expect(statuses.at(-1)).toBe(429);
    await page.getByTestId("bench-run").click();
    const problem = page.getByTestId("bench-problem");
    await problem.waitFor();
    expect(await problem.textContent()).toContain("That was a lot of tries in a short time.");
    expect(await problem.textContent()).toMatch(/You can try again in \d+ seconds?\./);
    expect(await page.getByTestId("bench-run").isDisabled()).toBe(true);
    // The previous result stays on screen.
    expect(await page.getByTestId("iterations").textContent()).toBe("10,000");
    await screenshots(page, "bench-refused");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
}
