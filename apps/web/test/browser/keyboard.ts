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
