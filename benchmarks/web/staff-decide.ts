#!/usr/bin/env bun
/**
 * The staff portal's review, interview and offer pages (issue 37, points 4–6), measured in
 * Debian's Chromium through the real gateway, with an admin signed in:
 *   - JavaScript per page, gzip bytes as transferred with the cache off (the portal's budget,
 *     150 KB: the entry, the shared chunks and the page's own),
 *   - time from navigation to the page's content (its data read from the API) with the cache
 *     off and on, median of `runs` loads.
 * Prints what it measured; asserts nothing (DEVELOPERS.md: figures come from scripts).
 *
 *   bun benchmarks/web/staff-decide.ts [--runs 5]
 *
 * A throwaway SQLite database (PostgreSQL with TEST_DATABASE_URL) holds one application under
 * review with a PDF and a PNG, made by the browser tests' own setup (staff-setup.ts), an
 * interview slot and a conditional offer's worth of nothing else. Ports: WEB_TEST_PORTS.
 */
import { parseArgs } from "node:util";
import { ADMIN, adminApi, admissionsBackend } from "../../apps/web/test/browser/admissions.ts";
import { hasChromium, launch } from "../../apps/web/test/browser/chromium.ts";
import { startMailbox } from "../../apps/web/test/browser/mailbox.ts";
import { startStack } from "../../apps/web/test/browser/stack.ts";
import { reviewReadyApplication } from "../../apps/web/test/browser/staff-setup.ts";
import { median } from "../stats.ts";
import { scriptBytes } from "./page-figures.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
if (!hasChromium) {
  console.error("staff-decide: /usr/bin/chromium is missing (apt-get install -y chromium)");
  process.exit(1);
}
const JS_BUDGET_KB = 150;

const mailbox = await startMailbox();
const backend = await admissionsBackend(mailbox.url);
const stack = await startStack({
  apps: ["admissions"],
  before: (base) => {
    backend.createAdmin(base);
    return { admissions: backend.env(base) };
  },
});
const browser = await launch();
try {
  const admin = await adminApi(stack.base);
  const { applicationId, programId, reviewerId } = await reviewReadyApplication(
    stack.base,
    admin,
    mailbox,
    { programName: "Benchmarking" },
  );
  const slot = await admin.call("POST", "/interviews/", {
    startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    durationMinutes: 30,
    location: "Room 1",
    panel: [reviewerId],
  });
  const pages = [
    { path: `/portal/staff/applications/${applicationId}`, ready: "documents-panel" },
    { path: "/portal/staff/interviews", ready: "interview-row" },
    { path: "/portal/staff/interviews/new", ready: "panel-member" },
    { path: `/portal/staff/interviews/${slot.id}`, ready: "interview-details" },
    { path: "/portal/staff/deferrals", ready: "deferrals-empty" },
    { path: `/portal/staff/calibration?programId=${programId}`, ready: "calibration-panel" },
  ];
  // Signed in once; each load is a new tab with that session.
  const signIn = await browser.context.newPage();
  await signIn.goto(`${stack.base}/portal/staff/login`);
  await signIn.fill('[data-testid="login-email"]', ADMIN.email);
  await signIn.fill('[data-testid="login-password"]', ADMIN.password);
  await signIn.press('[data-testid="login-password"]', "Enter");
  await signIn.waitForSelector('[data-testid="staff-queue"]', { timeout: 30_000 });
  await signIn.close();

  console.log(`staff review, interview and offer pages, an admin in Chromium via ${stack.base}`);
  console.log(
    `median of ${runs} loads (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "SQLite"})\n`,
  );
  console.log(`${"page".padEnd(44)}JS gzip KB (budget)   content cold ms   warm ms`);
  for (const { path, ready } of pages) {
    const cold: number[] = [];
    const warm: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const page = await browser.context.newPage();
      const cdp = await browser.context.newCDPSession(page);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      let t0 = performance.now();
      await page.goto(stack.base + path);
      await page.waitForSelector(`[data-testid="${ready}"]`, { timeout: 30_000 });
      cold.push(performance.now() - t0);
      // Every script it loaded, before its first paint or after (the staff pages set no mark).
      const loaded = await scriptBytes(page);
      bytes = loaded.first + loaded.later;
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
      await page.goto(stack.base + path);
      t0 = performance.now();
      await page.goto(stack.base + path);
      await page.waitForSelector(`[data-testid="${ready}"]`, { timeout: 30_000 });
      warm.push(performance.now() - t0);
      await page.close();
    }
    const kb = bytes / 1024;
    const shown = path.replace(/[0-9a-f-]{36}/g, ":id");
    console.log(
      `${shown.padEnd(43)} ${kb.toFixed(1).padStart(6)} (${JS_BUDGET_KB})${kb > JS_BUDGET_KB ? " OVER" : "     "}` +
        `${median(cold).toFixed(0).padStart(14)}${median(warm).toFixed(0).padStart(14)}`,
    );
  }
} finally {
  await browser.close();
  await stack.stop();
  await mailbox.close();
  await backend.cleanup();
}
