import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, screenshots, watchForErrors } from "./chromium.ts";
import { LIMITS, type Site } from "./site.ts";

/** The player stands still until a rock lands: a real game over, usually within seconds. */
async function waitForGameOver(page: Page): Promise<number> {
  const name = page.getByTestId("score-name");
  await name.waitFor({ state: "visible", timeout: 90_000 });
  const heading = await page.locator("#score-heading").textContent();
  const score = Number(heading?.match(/-?\d+/)?.[0]);
  expect(Number.isFinite(score)).toBe(true);
  return score;
}

export function gameTests(site: () => Site) {
  test("keyboard only: start, lose, see the API's validation error inline, submit, see the rank", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${base}/game/`);
    await page.getByTestId("leaderboard").waitFor();
    // Tab to the game area and start it with Space, as a keyboard player would.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      if (
        await page.evaluate(
          () => document.activeElement?.getAttribute("data-testid") === "game-area",
        )
      )
        break;
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "game-area",
    );
    await page.keyboard.press("Space");
    // Pause and resume from the keyboard; the status line says so.
    await page.keyboard.press("p");
    await page.getByTestId("game-status").filter({ hasText: "Paused" }).waitFor();
    await page.keyboard.press("p");
    const score = await waitForGameOver(page);
    // Game over puts the keyboard in the name field.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "score-name",
    );
    await screenshots(page, "game-over");
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.type("   ");
    await page.keyboard.press("Enter");
    const problem = page.getByTestId("score-error");
    await problem.waitFor();
    expect(await problem.textContent()).toContain("playerName");
    expect(await page.getByTestId("score-name").getAttribute("aria-invalid")).toBe("true");

    await page.getByTestId("score-name").fill("Keyboard Kim");
    await page.keyboard.press("Enter");
    const rank = page.getByTestId("score-rank");
    await rank.waitFor();
    expect(await rank.textContent()).toMatch(/Keyboard Kim is number \d+ on the board/);
    // The board is fetched again after the submission and shows the entry with its score.
    const row = page.getByTestId("leaderboard-row").filter({ hasText: "Keyboard Kim" });
    await row.waitFor();
    expect(await row.textContent()).toContain(score.toLocaleString("en"));
    const position = Number((await rank.textContent())?.match(/number (\d+)/)?.[1]);
    expect(
      await page
        .getByTestId("leaderboard-row")
        .nth(position - 1)
        .textContent(),
    ).toContain("Keyboard Kim");
    expect(errors.filter((e) => !e.includes("422"))).toEqual([]);
    await page.close();
  }, 120_000);

  test("restart, then a submission over the rate limit shows when to retry", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    await page.goto(`${base}/game/`);
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByRole("button", { name: "Restart" }).click();
    await waitForGameOver(page);
    // Use up what is left of this address's quota (the first test spent two) with direct calls.
    const statuses = await page.evaluate(async (limit) => {
      const seen: number[] = [];
      for (let i = 0; i < limit; i++) {
        const res = await fetch("/api/leaderboard", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ playerName: "filler", score: -1 }),
        });
        seen.push(res.status);
        if (res.status === 429) break;
      }
      return seen;
    }, LIMITS.leaderboard);
    expect(statuses.at(-1)).toBe(429);
    await page.getByTestId("score-name").fill("Too Fast");
    await page.getByTestId("score-submit").click();
    const problem = page.getByTestId("score-error");
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/Try again in \d+ seconds?/);
    await page
      .getByTestId("score-submit")
      .filter({ hasText: /Wait \d+ s/ })
      .waitFor();
    expect(await page.getByTestId("score-submit").isDisabled()).toBe(true);
    expect(await page.getByTestId("score-submit").textContent()).toMatch(/Wait \d+ s/);
    await page.close();
  }, 120_000);
}
