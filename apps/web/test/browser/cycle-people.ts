/**
 * What the whole-cycle test (portal-cycle.test.ts) does as each person, in the page and by
 * keyboard: signing in as staff or as the applicant (the browser has one cookie jar, so each
 * turn starts signed out), the staff's account and catalogue forms, typing dates into the
 * intake form, and choosing a file with Space.
 */
import { expect } from "bun:test";
import type { BrowserContext, FileChooser, Page } from "playwright-core";
import { activate, byTestId, tabTo, typeSignIn } from "./keyboard.ts";
import { retype } from "./office-setup.ts";

/** Signed out, then signed in on the staff sign-in page, on the queue (empty or not). */
export async function staffTurn(
  context: BrowserContext,
  page: Page,
  base: string,
  who: { email: string; password: string },
) {
  await context.clearCookies();
  await page.goto(`${base}/portal/staff/login`);
  await page.waitForSelector(byTestId("login-email"));
  await typeSignIn(page, who.email, who.password);
  await page.waitForURL(`${base}/portal/staff/`);
  await page.waitForSelector(`${byTestId("staff-queue")}, ${byTestId("queue-empty")}`);
}

/** Signed out, then signed in on the applicant's sign-in page, on `next` once it shows `ready`. */
export async function applicantTurn(
  context: BrowserContext,
  page: Page,
  base: string,
  who: { email: string; password: string },
  next: string,
  ready: string,
) {
  await context.clearCookies();
  await page.goto(`${base}/portal/login?next=${encodeURIComponent(next)}`);
  await page.waitForSelector(byTestId("login-email"));
  await typeSignIn(page, who.email, who.password);
  await page.waitForURL(`${base}${next}`);
  await page.waitForSelector(ready);
}

/** A reviewer's account from the staff accounts page (the role a new account starts with). */
export async function newReviewer(page: Page, person: { fullName: string; email: string }) {
  await activate(page, 'a[href="/portal/staff/users"]');
  await page.waitForSelector(byTestId("new-staff"));
  await tabTo(page, "#new-staff-name");
  await page.keyboard.type(person.fullName);
  await tabTo(page, "#new-staff-email");
  await page.keyboard.type(person.email);
  await tabTo(page, "#new-staff-password");
  await page.keyboard.type("a-long-reviewer-password");
  expect(await page.inputValue("#new-staff-role")).toBe("reviewer");
  await activate(page, byTestId("create-staff"));
  await page.waitForSelector(`${byTestId("staff-created")}:has-text("${person.fullName}")`);
  return { email: person.email, password: "a-long-reviewer-password" };
}

/** A programme from the catalogue's form: a €50 fee, a transcript and a CV required. */
export async function newProgramme(page: Page, code: string, name: string) {
  await activate(page, 'a[href="/portal/staff/programmes"]');
  await page.waitForSelector(byTestId("programme-new"));
  await activate(page, byTestId("programme-new"));
  await page.waitForSelector(byTestId("programme-form"));
  await retype(page, "#programme-code", code);
  await retype(page, "#programme-name", name);
  await retype(page, "#programme-department", "School of Cycles");
  await retype(page, "#programme-duration", "12");
  await retype(page, "#programme-fee", "50.00");
  for (const type of ["transcript", "cv"]) {
    await tabTo(page, byTestId(`programme-document-${type}`));
    await page.keyboard.press("Space");
  }
  await activate(page, byTestId("programme-save"));
  await page.waitForURL(/\/portal\/staff\/programmes\/[0-9a-f-]{36}\?created=1$/);
  await page.waitForSelector(byTestId("programme-notice"));
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

/** An intake from the programme page's form, its dates typed day, month and year. */
export async function newIntake(
  page: Page,
  intake: { term: string; opens: Date; deadline: Date; places: number },
) {
  const before = await page.locator(byTestId("intake")).count();
  await activate(page, byTestId("intake-new"));
  // The form puts the focus in its first field once drawn (a moment later on a busy machine).
  await page.waitForFunction(() => document.activeElement?.id === "intake-term");
  await page.keyboard.type(intake.term);
  for (const [field, at] of [
    ["opens", intake.opens],
    ["deadline", intake.deadline],
  ] as const) {
    await retype(page, `#intake-${field}-day`, String(at.getDate()));
    await retype(page, `#intake-${field}-month`, String(at.getMonth() + 1));
    await retype(page, `#intake-${field}-year`, String(at.getFullYear()));
  }
  await retype(page, "#intake-capacity", String(intake.places));
  await activate(page, byTestId("intake-save"));
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="intake"]').length === n + 1,
    before,
  );
}

/** The programme page's rubric (two weighted criteria on 1–5) and its reviewer pool. */
export async function rubricAndPool(page: Page, reviewerName: string) {
  await retype(page, "#rubric-label-0", "Academic record");
  await retype(page, "#rubric-weight-0", "3");
  await activate(page, byTestId("rubric-add"));
  await retype(page, "#rubric-label-1", "Motivation");
  await retype(page, "#rubric-weight-1", "1");
  await activate(page, byTestId("rubric-save"));
  await page.waitForSelector(byTestId("rubric-saved"));
  // The pool's box for the reviewer, found by the name its label gives.
  const id = await page.$$eval(
    byTestId("pool-member"),
    (boxes, name) =>
      (boxes as HTMLInputElement[]).find((box) => box.parentElement?.textContent?.includes(name))
        ?.value ?? "",
    reviewerName,
  );
  expect(id).not.toBe("");
  await tabTo(page, `${byTestId("pool-member")}[value="${id}"]`);
  await page.keyboard.press("Space");
  await activate(page, byTestId("pool-save"));
  await page.waitForSelector(byTestId("pool-saved"));
  return id;
}

/**
 * Chooses a file from the keyboard: Space on the file input opens the chooser, listened for
 * before the Space (a Space that outran Playwright's interception opened the browser's own
 * chooser, headless: nothing — see portal.test.ts).
 */
export async function chooseFile(
  page: Page,
  selector: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const chooser = new Promise<FileChooser>((resolve) => page.once("filechooser", resolve));
  await page.waitForLoadState("networkidle");
  await tabTo(page, selector);
  await page.keyboard.press("Space");
  await (await chooser).setFiles(file);
}

/** Today's date moved by a number of days (the intake form takes days, not times). */
export function daysFromNow(days: number): Date {
  const at = new Date();
  at.setDate(at.getDate() + days);
  return at;
}
