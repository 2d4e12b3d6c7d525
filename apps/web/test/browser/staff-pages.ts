/**
 * What the staff pages' browser tests share: their harness (the page check at both widths),
 * signing in by keyboard, waiting for Chromium's PDF viewer to have loaded a preview, and
 * typing a date and time.
 */
import { expect } from "bun:test";
import { axeViolations, DESKTOP, type Page, PHONE, screenshots } from "./chromium.ts";
import { byTestId, recordFocus, typeSignIn } from "./keyboard.ts";
import { type PortalHarnessOptions, portalHarness } from "./portal-harness.ts";

/** Keyboard only: the staff sign-in (reached from the queue, signed out), then the queue. */
export async function staffSignIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/portal/staff/`);
  await page.waitForURL(`${base}/portal/staff/login?next=%2Fportal%2Fstaff%2F`);
  await page.waitForSelector(byTestId("login-email"));
  await typeSignIn(page, email, password);
  await page.waitForURL(`${base}/portal/staff/`);
  // A queue with nothing to show says so (queue-empty) rather than draw an empty table.
  await page.waitForSelector(`${byTestId("staff-queue")}, ${byTestId("queue-empty")}`);
}

/**
 * The PDF preview has loaded: the iframe holds Chromium's viewer (an extension page), which
 * loads the PDF itself in a frame of its own, seconds later on a busy machine. Until then a
 * Tab into the viewer is handed back later as focus on the link after it, wherever the focus
 * has gone meanwhile (recorded: an arrow key in the decision group lost that way). Leaving
 * the page while the viewer is still starting also makes the viewer itself throw.
 */
export async function previewLoaded(page: Page, within = byTestId("document")) {
  const iframe = await page.waitForSelector(`${within} iframe`);
  // The blob: URL without the viewer's parameters (#toolbar=0…), which its inner frame drops.
  const src = (await iframe.getAttribute("src"))?.split("#")[0];
  const deadline = Date.now() + 30_000;
  const pdfFrame = () =>
    page
      .frames()
      .find(
        (f) =>
          f.url().split("#")[0] === src && f.parentFrame()?.url().startsWith("chrome-extension://"),
      );
  while (!pdfFrame()) {
    if (Date.now() > deadline) throw new Error(`Chromium's viewer never loaded ${src}`);
    await Bun.sleep(50);
  }
  await pdfFrame()?.waitForLoadState("load");
}

/**
 * The portal harness as the staff pages' tests use it: the focus recorded (so a lost key press
 * says where it went), Chromium's own PDF viewer's errors left out, and each page checked with
 * axe at a phone's width as well as the desktop's, so a layout that only breaks narrow is
 * caught too; then the screenshots, each once an open PDF preview has been redrawn.
 */
export function staffHarness(
  options: Pick<PortalHarnessOptions, "expected" | "admissionsEnv"> & { screenshotPrefix: string },
) {
  const harness = portalHarness({
    ...options,
    preparePage: recordFocus,
    notOurs: (error) => error.stack?.includes("chrome-extension://") ?? false,
  });
  const check = async (page: Page, name: string) => {
    await page.setViewportSize(PHONE);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, `${options.screenshotPrefix}-${name}`, pdfRedrawn);
  };
  return { ...harness, check };
}

/**
 * Chromium's PDF viewer redraws its pages some time after its frame changes size, and says
 * nothing when it has (its plugin paints out of process). A full-page screenshot stretches the
 * viewport to the page's height for the capture, so the viewer is caught mid-redraw: an empty
 * grey box. With a preview open, the viewport is made the page's height first and the viewer
 * given a second to redraw — for the person who looks at the picture, never for an assertion.
 */
async function pdfRedrawn(page: Page) {
  if ((await page.locator('iframe[src^="blob:"]').count()) === 0) return;
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await Bun.sleep(1000);
}

/**
 * Types a local date and time into the focused `<input type="datetime-local">` as a keyboard
 * user does in Chromium's en-US form (mm/dd/yyyy, hh:mm AM/PM): the year takes up to six
 * digits, so Tab leaves it for the hour.
 */
export async function typeDateTime(page: Page, at: Date) {
  const two = (n: number) => String(n).padStart(2, "0");
  await page.keyboard.type(`${two(at.getMonth() + 1)}${two(at.getDate())}${at.getFullYear()}`);
  await page.keyboard.press("Tab");
  const hours = at.getHours() % 12 === 0 ? 12 : at.getHours() % 12;
  await page.keyboard.type(`${two(hours)}${two(at.getMinutes())}`);
  await page.keyboard.type(at.getHours() < 12 ? "A" : "P");
}

/** Tomorrow at this local time (the tests' browser and Bun share the machine's zone). */
export function tomorrowAt(hours: number, minutes = 0): Date {
  const at = new Date();
  at.setDate(at.getDate() + 1);
  at.setHours(hours, minutes, 0, 0);
  return at;
}
