#!/usr/bin/env bun
/**
 * The staff queue with 10,000 applications awaiting a decision (issue 16, point 7), measured in
 * Debian's Chromium through the real gateway to the real admissions app:
 *   - time from navigation to the first page of rows visible (budget 1000 ms),
 *   - time from "Next" to the second page's rows (budget 300 ms),
 *   - time from a search (an applicant's surname) to its rows (budget 1000 ms),
 *   - the office queue's API page of 20 (`GET /staff/applications/`, what the admin's queue
 *     reads) at offset 0, deep in the queue, with that search, sorted by score, and filtered by
 *     payment state and a score range (budget 100 ms each).
 * Prints medians of `runs` tries; asserts nothing (DEVELOPERS.md: figures come from scripts).
 *
 *   bun benchmarks/web/staff-queue.ts [--runs 5] [--applications 10000]
 *
 * The database is fresh (a temporary SQLite file, or a new PostgreSQL database when
 * TEST_DATABASE_URL is set), migrated and given the admin by the app's own `create-admin`, then
 * filled before the app starts: the demo catalog (`seedDemo`) and the applications and their
 * applicants as multi-row INSERTs in one transaction (`insertRows`), with the running totals
 * rebuilt once (`rebuildCounts`) — the app's own DB layer, as benchmarks/admissions does.
 * Ports: WEB_TEST_PORTS (default 4100-4199).
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../../apps/admissions/src/db/client.ts";
import { isoAt, newId } from "../../apps/admissions/src/lib/ids.ts";
import { rebuildCounts } from "../../apps/admissions/src/modules/workflow/service.ts";
import { insertRows } from "../../apps/admissions/src/seed/bulk.ts";
import { seedDemo } from "../../apps/admissions/src/seed/demo.ts";
import { ADMIN, adminApi, admissionsBackend } from "../../apps/web/test/browser/admissions.ts";
import { hasChromium, launch, type Page } from "../../apps/web/test/browser/chromium.ts";
import { startStack } from "../../apps/web/test/browser/stack.ts";
import { median } from "../stats.ts";

// The callbacks given to waitForFunction run in the page; the root tsconfig has no DOM library.
type Element = { textContent: string | null; getAttribute: (name: string) => string | null };
declare const document: {
  querySelector: (selector: string) => Element | null;
  querySelectorAll: (selector: string) => Iterable<Element>;
};

const BUDGET_MS = { rows: 1000, next: 300, search: 1000, api: 100 };
const DAY = 86_400_000;
const FIRST = ["Ada", "Alan", "Grace", "Emmy", "Hedy", "Kurt", "Lise", "Niels", "Rosa", "Tim"];
const LAST = ["Abbott", "Baker", "Chandra", "Dirac", "Euler", "Fermi", "Gauss", "Hilbert", "Ising"];
/** The surname searched for; one applicant in LAST.length has it. */
const SEARCHED = "Hilbert";

/** `count` applications awaiting a decision (submitted or under review), 4 per applicant. */
async function seedQueue(config: { url?: string; sqliteFile: string }, count: number) {
  const db = await openDatabase(config);
  try {
    const nowMs = Date.now();
    await seedDemo(db, { nowMs, password: "demo-password", cost: { memoryCost: 64, timeCost: 1 } });
    const intakes: { id: string; program_id: string }[] = await db.run(
      (sql) => sql`SELECT id, program_id FROM intakes WHERE opens_at < ${isoAt(nowMs)}
        AND deadline > ${isoAt(nowMs)} ORDER BY id`,
    );
    const users: Record<string, unknown>[] = [];
    const applications: (Record<string, unknown> & { submitted_at: string })[] = [];
    for (let n = 0; n < count; n += 4) {
      const applicantId = newId();
      // 10 first names × 9 surnames (coprime): 90 names in turn.
      const name = `${FIRST[(n / 4) % FIRST.length]} ${LAST[(n / 4) % LAST.length]}`;
      const createdMs = nowMs - 50 * DAY + n * 60_000;
      users.push({
        id: applicantId,
        email: `${name.toLowerCase().replace(" ", ".")}.${n}@queue-bench.example`,
        full_name: name,
        // Never signs in: no password verifies against this.
        password_hash: "unusable",
        role: "applicant",
        active: true,
        created_at: isoAt(createdMs),
        updated_at: isoAt(createdMs),
      });
      for (let k = 0; k < 4 && n + k < count; k++) {
        const intake = intakes[(n + k) % intakes.length];
        if (!intake) throw new Error("no open intake in the demo catalog");
        applications.push({
          id: newId(),
          applicant_id: applicantId,
          program_id: intake.program_id,
          intake_id: intake.id,
          status: (n + k) % 3 === 0 ? "under_review" : "submitted",
          version: 2,
          personal_statement: "Benchmark statement.",
          created_at: isoAt(createdMs + k * 1000),
          updated_at: isoAt(createdMs + DAY + k * 1000),
          submitted_at: isoAt(createdMs + DAY + k * 1000),
        });
      }
    }
    await db.transaction(async (tx) => {
      await insertRows(tx, "users", users);
      await insertRows(tx, "applications", applications);
      await rebuildCounts(tx);
    });
    await db.run((sql) => sql`ANALYZE`);
    return applications.length;
  } finally {
    await db.close();
  }
}

/** The first row's link, to see a new page of rows arrive. */
const firstRow = (page: Page) =>
  page.getAttribute('[data-testid="queue-item"] a', "href", { timeout: 30_000 });

export async function measureStaffQueue(runs: number, count = 10_000): Promise<void> {
  const backend = await admissionsBackend();
  let seeded = 0;
  let seedMs = 0;
  const stack = await startStack({
    apps: ["admissions"],
    before: async (base) => {
      backend.createAdmin(base);
      const env = backend.env(base);
      const started = performance.now();
      seeded = await seedQueue(
        { url: env.DATABASE_URL || undefined, sqliteFile: env.ADMISSIONS_SQLITE_FILE ?? "" },
        count,
      );
      seedMs = performance.now() - started;
      return { admissions: env };
    },
  });
  const browser = await launch();
  try {
    const database = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "SQLite";
    console.log(
      `\nstaff queue: ${seeded} applications seeded in ${(seedMs / 1000).toFixed(1)} s (${database}), ` +
        `admin in Chromium via ${stack.base}; median of ${runs}`,
    );
    // Signed in once; every try opens the queue afresh in a new tab with that session.
    const signIn = await browser.context.newPage();
    await signIn.goto(`${stack.base}/portal/staff/login`);
    await signIn.fill('[data-testid="login-email"]', ADMIN.email);
    await signIn.fill('[data-testid="login-password"]', ADMIN.password);
    await signIn.press('[data-testid="login-password"]', "Enter");
    await signIn.waitForSelector('[data-testid="queue-item"]', { timeout: 30_000 });
    await signIn.close();

    const rows: number[] = [];
    const next: number[] = [];
    const search: number[] = [];
    let found = "";
    for (let i = 0; i < runs; i++) {
      const page = await browser.context.newPage();
      let t0 = performance.now();
      await page.goto(`${stack.base}/portal/staff/`);
      await page.waitForSelector('[data-testid="queue-item"]', { timeout: 30_000 });
      rows.push(performance.now() - t0);

      const before = await firstRow(page);
      t0 = performance.now();
      await page.click('[data-testid="queue-next"]');
      await page.waitForFunction(
        (href) =>
          document.querySelector('[data-testid="queue-item"] a')?.getAttribute("href") !== href,
        before,
        { timeout: 30_000 },
      );
      next.push(performance.now() - t0);

      await page.fill('[data-testid="queue-search"]', SEARCHED);
      t0 = performance.now();
      await page.press('[data-testid="queue-search"]', "Enter");
      await page.waitForFunction(
        (term) => {
          const items = [...document.querySelectorAll('[data-testid="queue-item"] th')];
          return items.length > 0 && items.every((th) => th.textContent?.includes(term));
        },
        SEARCHED,
        { timeout: 30_000 },
      );
      search.push(performance.now() - t0);
      found = (await page.textContent('[data-testid="queue-count"]')) ?? "";
      await page.close();
    }

    const admin = await adminApi(stack.base);
    const apiPage = async (query: string) => {
      const times: number[] = [];
      for (let i = 0; i < Math.max(runs, 10); i++) {
        const t0 = performance.now();
        await admin.call(
          "GET",
          `/staff/applications/?status=submitted,under_review&limit=20${query}`,
        );
        times.push(performance.now() - t0);
      }
      return median(times);
    };
    const api = {
      first: await apiPage("&ordering=submittedAt&offset=0"),
      deep: await apiPage(`&ordering=submittedAt&offset=${Math.floor(seeded / 2)}`),
      search: await apiPage(`&ordering=submittedAt&offset=0&search=${SEARCHED}`),
      byScore: await apiPage("&ordering=-score&offset=0"),
      filtered: await apiPage("&ordering=submittedAt&paymentState=paid&scoreMin=2&scoreMax=4"),
    };
    const line = (label: string, ms: number, budget: number) =>
      console.log(
        `  ${label.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms (budget ${budget})${ms > budget ? " OVER" : ""}`,
      );
    line("first page of rows visible", median(rows), BUDGET_MS.rows);
    line("next page of rows visible", median(next), BUDGET_MS.next);
    line(`search "${SEARCHED}" rows visible (${found.trim()})`, median(search), BUDGET_MS.search);
    line("API page of 20, offset 0", api.first, BUDGET_MS.api);
    line(`API page of 20, offset ${Math.floor(seeded / 2)}`, api.deep, BUDGET_MS.api);
    line(`API page of 20, search "${SEARCHED}"`, api.search, BUDGET_MS.api);
    line("API page of 20, sorted by score", api.byScore, BUDGET_MS.api);
    line("API page of 20, paid, score 2 to 4", api.filtered, BUDGET_MS.api);
  } finally {
    await browser.close();
    await stack.stop();
    await backend.cleanup();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      applications: { type: "string", default: "10000" },
    },
  });
  if (!hasChromium) {
    console.error("staff-queue: /usr/bin/chromium is missing (apt-get install -y chromium)");
    process.exit(1);
  }
  await measureStaffQueue(Number(values.runs), Number(values.applications));
}
