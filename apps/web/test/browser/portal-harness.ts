/**
 * What every portal file in Chromium sets up, in one place:
 * - an SMTP mailbox (mailbox.ts);
 * - a fresh admissions backend (admissions.ts: SQLite, or PostgreSQL + Redis with
 *   TEST_DATABASE_URL / TEST_REDIS_URL) and its admin;
 * - the real gateway, web and admissions apps (stack.ts);
 * - the admin's API and Chromium.
 *
 * It also gives pages that record every script error and CSP refusal, and the check each page
 * state gets (axe-core, then screenshots at both widths).
 *
 * Call it inside a `describe`, which it gives a beforeAll and an afterAll.
 */
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdirSync } from "node:fs";
import { type AdminApi, adminApi, admissionsBackend } from "./admissions.ts";
import {
  axeViolations,
  type ErrorWatch,
  hasChromium,
  launch,
  type Page,
  SCREENSHOT_DIR,
  screenshots,
  watchForErrors,
} from "./chromium.ts";
import { englishOnFrenchPage } from "./language.ts";
import { startMailbox } from "./mailbox.ts";
import { type Stack, startStack } from "./stack.ts";

/** What its pages' errors may be (`expected` statuses, errors `notOurs`), and what it adds. */
export type PortalHarnessOptions = Omit<ErrorWatch, "into"> & {
  expected: RegExp;
  /** The screenshots' names start with this (default "portal"). */
  screenshotPrefix?: string;
  /** More of the admissions app's environment, given the stack's base URL (a fake Stripe's). */
  admissionsEnv?: (base: string) => Record<string, string>;
  /** The web app's environment (the institution's name, logo, colour, address). */
  webEnv?: Record<string, string>;
  /** Done to every page opened, before it is used (say, recording where the focus goes). */
  preparePage?: (page: Page) => Promise<void>;
};

export type PortalHarness = ReturnType<typeof portalHarness>;

export function portalHarness(options: PortalHarnessOptions) {
  let stack: Stack | undefined;
  let browser: Awaited<ReturnType<typeof launch>> | undefined;
  let mailbox: Awaited<ReturnType<typeof startMailbox>> | undefined;
  let backend: Awaited<ReturnType<typeof admissionsBackend>> | undefined;
  let admin: AdminApi | undefined;
  /** Every script error and unexpected console error of every page; a test ends expecting none. */
  const errors: string[] = [];

  const ctx = () => {
    if (!stack || !browser || !mailbox || !admin) throw new Error("the stack did not start");
    return { base: stack.base, context: browser.context, mailbox, admin };
  };

  /** A new page in the shared context, its errors recorded. */
  const open = async (): Promise<Page> => {
    const page = await ctx().context.newPage();
    await options.preparePage?.(page);
    watchForErrors(page, { expected: options.expected, notOurs: options.notOurs, into: errors });
    return page;
  };

  /**
   * axe finds nothing, a French page shows no English message, and a person can look at the
   * page at both widths.
   */
  const check = async (page: Page, name: string) => {
    expect(await axeViolations(page)).toEqual([]);
    if ((await page.evaluate(() => document.documentElement.lang)) === "fr") {
      expect(await englishOnFrenchPage(page)).toEqual([]);
    }
    await screenshots(page, `${options.screenshotPrefix ?? "portal"}-${name}`);
  };

  /** A JSON POST to the API through the gateway, as a client other than the browser. */
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${ctx().base}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    if (!hasChromium) return;
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    mailbox = await startMailbox();
    backend = await admissionsBackend(mailbox.url);
    const made = backend;
    stack = await startStack({
      apps: ["admissions"],
      env: { web: options.webEnv ?? {} },
      before: (base) => {
        made.createAdmin(base);
        return { admissions: { ...made.env(base), ...options.admissionsEnv?.(base) } };
      },
    });
    admin = await adminApi(stack.base);
    browser = await launch();
  }, 120_000);

  // Stopping the apps and dropping a PostgreSQL database can pass the 5 s default on a
  // loaded machine (it did once, load average 10 on 2 cores).
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await mailbox?.close();
    await backend?.cleanup();
  }, 30_000);

  return { ctx, open, check, post, errors };
}
