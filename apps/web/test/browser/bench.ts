import { expect, test } from "bun:test";
import { axeViolations, screenshots, watchForErrors } from "./chromium.ts";
import { LIMITS, type Site } from "./site.ts";

/** "1,234.5 µs" → 1234.5 */
const micros = (text: string | null) => Number((text ?? "").replace(/[^\d.]/g, ""));

export function benchTests(site: () => Site) {
  test("run each way (keyboard and mouse), see the figures and the quota, then exhaust the limit", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    const errors = watchForErrors(page, { expected: /status of 429/ });
    await page.goto(`${base}/bench/`);
    const options = await page
      .getByTestId("bench-type")
      .locator("option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).toEqual(["json", "array", "string", "crypto"]);

    // Keyboard: focus the select, pick "array" with the arrow key, Tab to Run, press Enter.
    await page.getByTestId("bench-type").focus();
    await page.keyboard.press("ArrowDown");
    expect(await page.getByTestId("bench-type").inputValue()).toBe("array");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByTestId("iterations").waitFor({ timeout: 60_000 });

    const executionTime = micros(await page.getByTestId("execution-time").textContent());
    const iterations = micros(await page.getByTestId("iterations").textContent());
    const perIteration = micros(await page.getByTestId("per-iteration").textContent());
    expect(iterations).toBe(10_000);
    expect(executionTime).toBeGreaterThan(0);
    // The page derives it; shown to 3 decimals.
    expect(Math.abs(perIteration - executionTime / iterations)).toBeLessThan(0.001);
    expect(await page.getByTestId("timestamp").locator("time").getAttribute("datetime")).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    expect(await page.getByTestId("per-iteration-stats").textContent()).toContain("µs");
    expect(await page.getByTestId("rate-limit").textContent()).toMatch(
      new RegExp(`^${LIMITS.bench - 1} of ${LIMITS.bench} runs left; .* in \\d+ s\\.$`),
    );
    expect(await page.getByTestId("bench-chart").textContent()).toContain("array (1)");

    // Mouse: the rest of the quota, on other types.
    for (const type of ["json", "crypto"].slice(0, LIMITS.bench - 1)) {
      await page.getByTestId("bench-type").selectOption(type);
      await page.getByTestId("bench-run").click();
      await page
        .getByTestId("bench-chart")
        .filter({ hasText: `${type} (1)` })
        .waitFor({ timeout: 60_000 });
    }
    expect(await page.getByTestId("rate-limit").textContent()).toMatch(
      /^0 of \d+ runs left; the next one returns in \d+ s\.$/,
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "bench-results");

    // Over the limit: the 429 is explained with its wait, and Run waits with it.
    await page.getByTestId("bench-run").click();
    const problem = page.getByTestId("bench-problem");
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/Try again in \d+ seconds?/);
    expect(await page.getByTestId("bench-run").isDisabled()).toBe(true);
    // The previous result stays on screen.
    expect(await page.getByTestId("iterations").textContent()).toBe("10,000");
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
}
