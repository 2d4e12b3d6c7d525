import type { Page } from "playwright-core";

/**
 * Moves the focus with Tab alone until the element matching `selector` has it, as a keyboard
 * user would; fails if it is not reached in `max` presses (so an element that Tab cannot reach
 * fails the test).
 */
export async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const here = await page.evaluate(
      (sel) => document.activeElement?.matches(sel) ?? false,
      selector,
    );
    if (here) return;
  }
  throw new Error(`Tab never reached ${selector} in ${max} presses`);
}

export const byTestId = (id: string) => `[data-testid="${id}"]`;

/** Tab to a control and press Enter on it. */
export async function activate(page: Page, selector: string): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.press("Enter");
}

/** Fills a sign-in form (the applicant's or the staff one) by keyboard and presses Enter. */
export async function typeSignIn(page: Page, email: string, password: string): Promise<void> {
  await tabTo(page, byTestId("login-email"));
  await page.keyboard.type(email);
  await tabTo(page, byTestId("login-password"));
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
}

type FocusRecord = { log: string[]; name: (target: EventTarget | null) => string };

/**
 * Records, from the page's first script on, every focus change, key press and change event with
 * its time, so a key that did not do what a test expected can say where it went (`pressFor`).
 */
export async function recordFocus(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: string[] = [];
    const name = (target: EventTarget | null) => {
      if (target === window) return "window";
      if (!(target instanceof Element)) return String(target);
      // A link by where it goes: the page has several without an id.
      const id =
        target.getAttribute("data-testid") ??
        (target.id || target.getAttribute("href")?.slice(0, 40));
      return `<${target.tagName.toLowerCase()}${id ? ` ${id}` : ""}>`;
    };
    (globalThis as unknown as { focusRecord: FocusRecord }).focusRecord = { log, name };
    const note = (what: string) => log.push(`${Math.round(performance.now())} ms ${what}`);
    addEventListener("focusin", (e) => note(`focus ${name(e.target)}`), true);
    addEventListener("blur", (e) => {
      if (e.target === window) note(`window lost focus, active ${name(document.activeElement)}`);
    });
    addEventListener(
      "keydown",
      (e) => note(`keydown ${(e as KeyboardEvent).key} on ${name(e.target)}`),
      true,
    );
    addEventListener("change", (e) => note(`change ${name(e.target)}`), true);
  });
}

/**
 * Presses `key`, then waits for `selector`; if it never shows, says where the focus is and the
 * last events `recordFocus` saw.
 */
export async function pressFor(page: Page, key: string, selector: string): Promise<void> {
  await page.keyboard.press(key);
  await page.waitForSelector(selector, { timeout: 5_000 }).catch(async (error: Error) => {
    const seen = await page.evaluate(() => {
      const record = (globalThis as unknown as { focusRecord?: FocusRecord }).focusRecord;
      return record
        ? `focus on ${record.name(document.activeElement)}; the last events:\n${record.log.slice(-40).join("\n")}`
        : "no focus record (recordFocus was not called)";
    });
    throw new Error(`${error.message}\nafter ${key}: ${seen}`);
  });
}

/** Fills the registration form by keyboard and sends it (Enter). */
export async function typeRegistration(
  page: Page,
  person: { fullName: string; email: string; password: string },
): Promise<void> {
  await tabTo(page, byTestId("register-name"));
  await page.keyboard.type(person.fullName);
  await tabTo(page, byTestId("register-email"));
  await page.keyboard.type(person.email);
  await tabTo(page, byTestId("register-password"));
  await page.keyboard.type(person.password);
  await page.keyboard.press("Enter");
}
