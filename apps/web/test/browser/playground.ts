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
    await page.getByTestId("examples").selectOption({ label: "Throws" });
    await page.getByTestId("code").click();
    await runAndWait(page, "keys");
    expect(await page.getByTestId("output").textContent()).toBe("41\n");
    expect(await page.getByTestId("error").textContent()).toContain(
      "TypeError: not an age: forty-two",
    );
    expect(await page.getByTestId("timed-out").textContent()).toBe("no");
  }, 60_000);

  test("a program that runs forever times out at the chosen timeout", async () => {
    await page.getByTestId("examples").selectOption({ label: "Runs forever (times out)" });
    await page.getByTestId("timeout").fill("300");
    await runAndWait(page);
    expect(await page.getByTestId("timed-out").textContent()).toBe("yes");
    const ms = Number((await page.getByTestId("execution-time").textContent())?.replace(" ms", ""));
    expect(ms).toBeGreaterThanOrEqual(300);
  }, 60_000);

  test("a blocked capability is refused and explained", async () => {
    await page.getByTestId("examples").selectOption({ label: "Blocked capability" });
    await runAndWait(page);
    expect(await page.getByTestId("error").textContent()).toMatch(/^SecurityError: .*fetch/);
    expect(await page.getByTestId("blocked-explanation").textContent()).toContain(
      "The program used the network (fetch), which the sandbox does not offer.",
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
    expect(await problem.textContent()).toContain(
      "The program is longer than 1000 characters: shorten it to run it.",
    );
    expect(await problem.textContent()).not.toContain("/body");
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

  test("a type error is shown before running, by line, and does not stop the run", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${base}/playground/`);
    // The example on arrival type-checks clean once the worker is up.
    await checked(page);
    expect(await page.getByTestId("diagnostics").textContent()).toContain("No type errors.");
    await setCode(page, "const x: number = 'str';\nconsole.log(x);");
    // The count goes from 0 to 1 only once the checker has seen the new text.
    const diagnostics = page.getByTestId("diagnostics");
    await page.locator('[data-testid="diagnostics"][data-count="1"]').waitFor();
    expect(await diagnostics.textContent()).toContain(
      "Line 1, column 7: Type 'string' is not assignable to type 'number'.",
    );
    // Underlined in the editor too; nothing was sent to the runner to find it.
    expect(await page.locator(".cm-lintRange-error").count()).toBeGreaterThan(0);
    expect(await page.getByTestId("output").count()).toBe(0);
    await screenshots(page, "playground-type-error");
    expect(await axeViolations(page)).toEqual([]);
    // Pressing the error's place puts the cursor there.
    await page.getByTestId("diagnostic").getByRole("button").click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "code",
    );
    // Ctrl+Enter runs it anyway: the runner strips types and prints the string.
    await runAndWait(page, "keys");
    expect(await page.getByTestId("output").textContent()).toBe("str\n");
    expect(await page.getByTestId("run-summary").textContent()).toMatch(/^Ran in \d+\.\d\d ms\.$/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  test("completions come from the compiler: Math. offers its members", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    await page.goto(`${base}/playground/`);
    await checked(page);
    await setCode(page, "const big = Math.");
    await page.keyboard.press("Control+Space");
    const list = page.locator(".cm-tooltip-autocomplete");
    await list.waitFor();
    expect(await list.textContent()).toContain("max");
    await page.keyboard.type("hyp");
    await list.locator('[aria-selected="true"]').filter({ hasText: "hypot" }).waitFor();
    // CodeMirror ignores Enter for 75 ms after the list changes (its interactionDelay), so a
    // key pressed as the list appears is a new line, not a pick.
    await page.waitForTimeout(150);
    await page.keyboard.press("Enter");
    await list.waitFor({ state: "detached" });
    expect(await page.getByTestId("code").textContent()).toBe("const big = Math.hypot");
    await screenshots(page, "playground-completions");
    await page.close();
  }, 60_000);

  test("a share link restores the program in a new tab; a damaged one says so", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    await page.goto(`${base}/playground/`);
    const program = 'const greet = (who: string) => "hello, " + who;\nconsole.log(greet("link"));';
    await setCode(page, program);
    await page.getByTestId("share").click();
    const link = await page.getByTestId("share-link").inputValue();
    expect(link).toMatch(new RegExp(`^${base}/playground/#code=[\\w-]+$`));
    expect(page.url()).toBe(link);
    await screenshots(page, "playground-shared");
    expect(await axeViolations(page)).toEqual([]);

    const opened = await context.newPage();
    await opened.goto(link);
    await opened.getByTestId("share-notice").waitFor();
    expect(await opened.getByTestId("code").textContent()).toBe(program.replace("\n", ""));
    expect(
      await opened.evaluate(() =>
        [...document.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"),
      ),
    ).toBe(program);
    await opened.goto(`${base}/playground/#code=not-deflate`);
    await opened.reload();
    await opened.getByTestId("share-notice").filter({ hasText: "could not be read" }).waitFor();
    expect(await opened.getByTestId("code").textContent()).toContain("type Point");
    await opened.close();
    await page.close();
  }, 60_000);
}

export function checkerFailureTests(site: () => Site) {
  test("a type checker that cannot load is said in words, and the program still runs", async () => {
    const { base, context } = site();
    const page = await context.newPage();
    const errors = watchForErrors(page, { expected: /status of 404/ });
    // The worker's script answers 404, as a broken deploy or a blocked download would.
    await page.route(/\/assets\/ts-worker-[^/]+\.js$/, (route) =>
      route.fulfill({ status: 404, body: "" }),
    );
    await page.goto(`${base}/playground/`);
    const diagnostics = page.locator('[data-testid="diagnostics"][data-state="failed"]');
    await diagnostics.waitFor();
    expect(await diagnostics.textContent()).toContain(
      "The type checker could not start in this browser, so types are not checked here. Running still works.",
    );
    await setCode(page, 'console.log("still runs");');
    await runAndWait(page);
    expect(await page.getByTestId("output").textContent()).toBe("still runs\n");
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
}

/** Waits until the type checker has answered for the text now in the editor. */
async function checked(page: Page) {
  await page
    .locator('[data-testid="diagnostics"][data-state="checked"]')
    .waitFor({ timeout: 30_000 });
}
