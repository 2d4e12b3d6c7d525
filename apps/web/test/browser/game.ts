import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import {
  axeViolations,
  DESKTOP,
  launchWithClock,
  PHONE,
  SCREENSHOT_DIR,
  screenshots,
  TAKE_SCREENSHOTS,
  watchForErrors,
} from "./chromium.ts";
import { LIMITS, type Site } from "./site.ts";

/**
 * The player stands still until rocks have taken every life: a real game over, within two
 * minutes of game time at most (engine.test.ts). The page's clock is Playwright's (a browser of
 * its own, `clockedPage`), moved on 5 s at a time with every frame run and drawn, so the game
 * plays as it would in real time without the test waiting it out.
 */
async function waitForGameOver(page: Page): Promise<number> {
  const over = page.getByTestId("game-over");
  for (let step = 0; step < 30 && !(await over.isVisible()); step++) {
    await page.clock.runFor(5_000);
  }
  await over.waitFor({ state: "visible" });
  const score = Number(await page.locator("form[data-score]").getAttribute("data-score"));
  expect(Number.isInteger(score)).toBe(true);
  return score;
}

const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);

/** Where the paddle's centre is, in game units, read from the canvas's pixels (its colour). */
async function paddleX(page: Page): Promise<number> {
  return page.evaluate(
    ({ y, width }) => {
      const canvas = document.querySelector("canvas");
      const ctx = canvas?.getContext("2d");
      if (!canvas || !ctx) return Number.NaN;
      const scale = canvas.width / width;
      const row = ctx.getImageData(0, Math.round(y * scale), canvas.width, 1).data;
      const xs: number[] = [];
      for (let x = 0; x < canvas.width; x++) {
        const [r, g, b] = [row[x * 4], row[x * 4 + 1], row[x * 4 + 2]];
        if (r === 0x7f && g === 0xd1 && b === 0xff) xs.push(x);
      }
      const [first, last] = [xs[0], xs.at(-1)];
      return first === undefined || last === undefined ? Number.NaN : (first + last) / 2 / scale;
    },
    { y: PADDLE_ROW, width: 480 },
  );
}
/** A row through the middle of the paddle (engine.ts: PLAYER_Y = 332, PLAYER_HEIGHT = 14). */
const PADDLE_ROW = 339;

export function gameTests(site: () => Site) {
  let clocked: Awaited<ReturnType<typeof launchWithClock>> | undefined;
  /** A page on Playwright's clock, in one browser for the tests that wait for a game over. */
  const clockedPage = async () => {
    clocked ??= await launchWithClock();
    return clocked.context.newPage();
  };
  afterAll(async () => {
    await clocked?.close();
  });

  test("touch: a tap starts the game and the paddle follows a finger held on the canvas", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${base}/game/`);
    const touch = await context.newCDPSession(page);
    await touch.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
    const start = await page.getByRole("button", { name: "Start" }).boundingBox();
    if (!start) throw new Error("no Start button");
    // A tap, as Playwright's own touchscreen.tap sends it: a touch down and up on the button.
    const tap = { x: start.x + start.width / 2, y: start.y + start.height / 2 };
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [tap] });
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.getByTestId("game-pause").waitFor();
    expect(await paddleX(page)).toBeCloseTo(240, -1);
    // A touch screen (a coarse pointer) gets the on-screen arrows and the touch hint.
    expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
    expect(await page.locator(".touch-controls").isVisible()).toBe(true);
    // A phone's picture with touch on: Playwright turns touch emulation off when it resizes the
    // viewport, so it is turned on again before the shot.
    if (TAKE_SCREENSHOTS) {
      await page.setViewportSize(PHONE);
      await touch.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
      await page.locator(".touch-controls").waitFor();
      // The viewport only: a full-page shot resizes it again, and touch with it.
      await page.screenshot({ path: join(SCREENSHOT_DIR, "game-touch-phone.png") });
      await page.setViewportSize(DESKTOP);
      await touch.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
    }
    // A finger down near the canvas's left edge, held: the paddle slides under it.
    const area = await page.locator("canvas").boundingBox();
    if (!area) throw new Error("no canvas");
    const finger = { x: area.x + area.width * 0.1, y: area.y + area.height * 0.9 };
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [finger] });
    await touch.send("Input.dispatchTouchEvent", {
      type: "touchMove",
      touchPoints: [{ ...finger, x: finger.x + 1 }],
    });
    await page.waitForTimeout(600);
    const held = await paddleX(page);
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    // The paddle stops at the edge (half its width, 28) or under the finger (48): left of 100.
    expect(held).toBeLessThan(100);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  test("desktop: no on-screen arrows, and the focus ring is as wide as the canvas", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    await page.goto(`${base}/game/`);
    await page.getByTestId("game-canvas").waitFor();
    expect(await page.locator(".touch-controls").isVisible()).toBe(false);
    const canvas = await page.getByTestId("game-canvas").boundingBox();
    const area = await page.getByTestId("game-area").boundingBox();
    expect(Math.round(area?.width ?? 0)).toBe(Math.round(canvas?.width ?? -1));
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.locator('[data-motion="reduced"]').waitFor();
    await page.close();
  });

  test("keyboard only: Space plays at once, sound off is remembered, lives run out, the name is refused in words, then the row is highlighted", async () => {
    const { base } = site();
    const page = await clockedPage();
    const errors = watchForErrors(page, { expected: /status of 422/ });
    await page.goto(`${base}/game/`);
    await page.getByTestId("leaderboard").waitFor();
    // Sound off with M, and still off after a reload (kept in this browser).
    expect(await page.getByTestId("sound-toggle").getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("m");
    expect(await page.getByTestId("sound-toggle").getAttribute("aria-pressed")).toBe("false");
    await page.reload();
    await page.getByTestId("leaderboard").waitFor();
    expect(await page.getByTestId("sound-toggle").getAttribute("aria-pressed")).toBe("false");
    await page.keyboard.press("m");
    expect(await page.getByTestId("sound-toggle").getAttribute("aria-pressed")).toBe("true");

    // No click and no Tab first: Space on the freshly loaded page starts the game.
    expect(await focused(page)).toBe(null);
    await page.keyboard.press("Space");
    await page.getByTestId("game-pause").waitFor();
    expect(await page.getByTestId("game-lives").getAttribute("data-lives")).toBe("3");
    expect(await page.getByTestId("game-level").textContent()).toBe("1");
    await page.keyboard.press("p");
    await page.getByTestId("game-status").filter({ hasText: "Paused" }).waitFor();
    await page.keyboard.press("p");
    await page.getByTestId("game-pause").filter({ hasText: "Pause" }).waitFor();
    // A hidden tab pauses the game (the page's own visibilitychange handler, told it is hidden).
    await page.evaluate(() => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await page.getByTestId("game-pause").filter({ hasText: "Resume" }).waitFor();
    await page.evaluate(() => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
    });
    await page.keyboard.press("Space");
    await page.getByTestId("game-pause").filter({ hasText: "Pause" }).waitFor();
    // The arrows steer without the page scrolling.
    await page.keyboard.down("ArrowRight");
    await page.waitForTimeout(300);
    await page.keyboard.up("ArrowRight");
    expect(await paddleX(page)).toBeGreaterThan(260);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const score = await waitForGameOver(page);
    expect(await page.getByTestId("game-lives").getAttribute("data-lives")).toBe("0");
    // Game over goes straight to the name field.
    expect(await focused(page)).toBe("score-name");
    expect(Number((await page.getByTestId("game-best").textContent())?.replace(/,/g, ""))).toBe(
      score,
    );
    await screenshots(page, "game-over");
    expect(await axeViolations(page)).toEqual([]);

    // The rule is there in words before anything is sent, and the field is described by it.
    expect(await page.getByTestId("score-name-hint").textContent()).toContain(
      "at least one of them a letter, digit, punctuation mark or symbol",
    );
    expect(await page.getByTestId("score-name").getAttribute("aria-describedby")).toBe(
      "score-name-hint",
    );
    await page.keyboard.type("   ");
    await page.keyboard.press("Enter");
    const problem = page.getByTestId("score-error");
    await problem.waitFor();
    expect(await problem.textContent()).toContain("Your name must not be empty");
    // Words, never the schema's pointer.
    expect(await problem.textContent()).not.toContain("/body");
    expect(await page.getByTestId("score-name").getAttribute("aria-invalid")).toBe("true");
    await screenshots(page, "game-name-refused");
    expect(await axeViolations(page)).toEqual([]);
    // A name of fillers and zero-width spaces looks empty on the board: refused in words.
    await page.getByTestId("score-name").fill("\u3164\u200B\u3164");
    await page.keyboard.press("Enter");
    await problem.filter({ hasText: "at least one visible character" }).waitFor();

    await page.getByTestId("score-name").fill("Keyboard Kim");
    await page.keyboard.press("Enter");
    const rank = page.getByTestId("score-rank");
    await rank.waitFor();
    expect(await rank.textContent()).toMatch(/Keyboard Kim is number \d+ on the board/);
    // The board is read again and the entry just sent is the highlighted row, with its score.
    const current = page.locator('[data-testid="leaderboard-row"][aria-current="true"]');
    await current.waitFor();
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toContain("Keyboard Kim");
    expect(await current.textContent()).toContain(score.toLocaleString("en"));
    const position = Number((await rank.textContent())?.match(/number (\d+)/)?.[1]);
    expect(
      await page
        .getByTestId("leaderboard-row")
        .nth(position - 1)
        .getAttribute("aria-current"),
    ).toBe("true");
    await screenshots(page, "game-submitted");
    expect(await axeViolations(page)).toEqual([]);
    // The keyboard is on "Play again"; Enter starts a new game with full lives.
    await page.keyboard.press("Enter");
    await page.getByTestId("game-pause").waitFor();
    expect(await page.getByTestId("game-lives").getAttribute("data-lives")).toBe("3");
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  test("restart, then a submission over the rate limit shows when to retry", async () => {
    const { base } = site();
    const page = await clockedPage();
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
          body: JSON.stringify({ playerName: "filler", score: 0 }),
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
    expect(await problem.textContent()).toContain("a lot of tries in a short time");
    expect(await problem.textContent()).toMatch(/try again in \d+ seconds?/);
    await page
      .getByTestId("score-submit")
      .filter({ hasText: /Wait \d+ s/ })
      .waitFor();
    expect(await page.getByTestId("score-submit").isDisabled()).toBe(true);
    expect(await page.getByTestId("score-submit").textContent()).toMatch(/Wait \d+ s/);
    await page.close();
  }, 200_000);
}
