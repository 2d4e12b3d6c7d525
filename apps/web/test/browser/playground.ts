import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, screenshots, watchForErrors } from "./chromium.ts";
import type { Site } from "./site.ts";

/** Replaces the editor's text by typing, as a user does (select all, then insert). */
async function setCode(page: Page, code: string) {
  await page.getByTestId("code").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(code);
}

/** Runs the program and waits until the page shows the API's answer. */
async function runAndWait(page: Page, how: "click" | "keys" = "click") {
  const answered = page.waitForResponse((res) => res.url().endsWith("/api/run"), {
    timeout: 30_000,
  });
  if (how === "click") await page.getByTestId("run").click();
  else await page.keyboard.press("ControlOrMeta+Enter");
  await answered;
  await page.getByTestId("run").filter({ hasText: /^Run$/ }).waitFor();
  await page.getByTestId("execution-time").waitFor();
}

export function playgroundTests(site: () => Site) {
  let page: Page;
  let errors: string[];

  test("a program that succeeds: output, no error, its execution time", async () => {
    const { base, context } = site();
    page = await context.newPage();
    errors = watchForErrors(page, { expected: /status of 422/ });
    await page.goto(`${base}/playground/`);
    const code = 'const n: number = 6 * 7;\nconsole.log("answer", n);';
    await setCode(page, code);
    expect(await page.getByTestId("char-count").textContent()).toContain(`${code.length} / 1000`);
    await page.getByTestId("timeout").fill("2000");
    await runAndWait(page);
    expect(await page.getByTestId("output").textContent()).toBe("answer 42\n");
    expect(await page.getByTestId("error").textContent()).toBe("");
    expect(await page.getByTestId("timed-out").textContent()).toBe("no");
    expect(await page.getByTestId("execution-time").textContent()).toMatch(/^\d+\.\d\d ms$/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, "playground-output");
  }, 60_000);

  test("a program that throws, run with Ctrl+Enter from the editor", async () => {
    await page.getByLabel("Example").selectOption({ label: "Throws" });
    await page.getByTestId("code").click();
    await runAndWait(page, "keys");
    expect(await page.getByTestId("output").textContent()).toBe("41\n");
    expect(await page.getByTestId("error").textContent()).toContain(
      "TypeError: not an age: forty-two",
    );
    expect(await page.getByTestId("timed-out").textContent()).toBe("no");
  }, 60_000);

  test("a program that runs forever times out at the chosen timeout", async () => {
    await page.getByLabel("Example").selectOption({ label: "Runs forever (times out)" });
    await page.getByTestId("timeout").fill("300");
    await runAndWait(page);
    expect(await page.getByTestId("timed-out").textContent()).toBe("yes");
    const ms = Number((await page.getByTestId("execution-time").textContent())?.replace(" ms", ""));
    expect(ms).toBeGreaterThanOrEqual(300);
  }, 60_000);

  test("a blocked capability is refused and explained", async () => {
    await page.getByLabel("Example").selectOption({ label: "Blocked capability" });
    await runAndWait(page);
    expect(await page.getByTestId("error").textContent()).toMatch(/^SecurityError: .*fetch/);
    expect(await page.getByTestId("blocked-explanation").textContent()).toContain(
      "without network access",
    );
    await screenshots(page, "playground-blocked");
  }, 60_000);

  test("a timeout outside 1–5000 is flagged and Run waits; over 1000 characters the API's 422 shows", async () => {
    await page.getByTestId("timeout").fill("5001");
    expect(await page.getByTestId("run").isDisabled()).toBe(true);
    expect(await page.getByTestId("timeout").getAttribute("aria-invalid")).toBe("true");
    await page.getByTestId("timeout").fill("1000");
    await setCode(page, `console.log(${JSON.stringify("x".repeat(1000))});`);
    expect(await page.getByTestId("char-count").textContent()).toContain("too long");
    await page.getByTestId("run").click();
    const problem = page.getByTestId("run-problem");
    await problem.waitFor();
    expect(await problem.textContent()).toContain("/body/code");
  }, 60_000);

  test("Tab leaves the editor for the next control, and nothing was refused by the CSP", async () => {
    await page.getByTestId("code").click();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "timeout",
    );
    expect(errors).toEqual([]);
    await page.close();
  });
}
