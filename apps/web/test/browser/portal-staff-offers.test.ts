/**
 * Offers in Chromium through the gateway (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL
 * / TEST_REDIS_URL), keyboard only: an admin makes a conditional offer; once it is accepted
 * (through the API, as the applicant), settles one condition met with its evidence viewed in
 * place and waives the other, reads the signed letter; the applicant asks to defer, which is
 * refused, then asked again and approved once the later intake has a seat (refused first for
 * want of one), found from the office's list of requests; another offer ends on a condition
 * not met, after a second press. axe at both widths on every state, screenshots of each.
 */
import { describe, expect, test } from "bun:test";
import { ADMIN } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, pressFor, tabTo } from "./keyboard.ts";
import { previewLoaded, staffHarness, staffSignIn } from "./staff-pages.ts";
import { reviewReadyApplication } from "./staff-setup.ts";

if (!hasChromium) console.warn(`portal staff offers browser tests ${NO_CHROMIUM}`);

/** Expected failed statuses: signed out 401; no seat for the deferral, 409; no condition, 422. */
const EXPECTED = /status of (401|409|422)/;
const DAY = 86_400_000;

describe.skipIf(!hasChromium)(
  hasChromium ? "offers in Chromium" : `offers (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = staffHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-staff-offers",
    });
    const condition = (n: number) => `${byTestId("condition-row")}:nth-child(${n})`;
    /** A fresh page, the admin signed in by keyboard, on the application, once `ready` shows. */
    const adminOn = async (applicationId: string, ready: string) => {
      const { base, context } = ctx();
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, base, ADMIN.email, ADMIN.password);
      await page.goto(`${base}/portal/staff/applications/${applicationId}`);
      await page.waitForSelector(byTestId(ready));
      return page;
    };

    test("conditions settled with their evidence, the signed letter, a deferral refused then approved — keyboard only", async () => {
      const { base, admin, mailbox } = ctx();
      const first = await reviewReadyApplication(base, admin, mailbox, {
        programName: "Offer Conditions",
      });
      const { applicationId, programId } = first;
      // A later intake with one seat, which another applicant's offer holds.
      const later = await admin.call<{ id: string }>(
        "POST",
        `/catalog/programs/${programId}/intakes/`,
        {
          term: "Autumn 2032",
          opensAt: new Date(Date.now() - DAY).toISOString(),
          deadline: new Date(Date.now() + 400 * DAY).toISOString(),
          capacity: 1,
        },
      );
      const other = await reviewReadyApplication(base, admin, mailbox, {
        into: { programId, intakeId: later.id },
      });
      await admin.call("POST", `/applications/${other.applicationId}/decision/`, {
        decision: "offer",
      });

      const page = await adminOn(applicationId, "decision");
      // A conditional offer with two conditions, one a line.
      await tabTo(page, byTestId("decision-offer"));
      await pressFor(page, "ArrowDown", `${byTestId("decision-conditional_offer")}:checked`);
      await tabTo(page, byTestId("decision-conditions"));
      await page.keyboard.type("Final transcript showing a first");
      await page.keyboard.press("Enter");
      await page.keyboard.type("A language certificate at C1");
      await activate(page, byTestId("decide"));
      await page.waitForSelector(byTestId("condition-row"));
      expect(await page.locator(byTestId("condition-row")).count()).toBe(2);
      await check(page, "conditional");

      // The applicant accepts (through the API); the conditions stay open.
      await first.as("POST", `/applications/${applicationId}/accept/`);
      await page.reload();
      await page.waitForSelector('[data-testid="application-status"][data-status="accepted"]');
      // The first met, its evidence the transcript, seen in place before saving.
      await tabTo(page, `${condition(1)} ${byTestId("condition-evidence-select")}`);
      await page.keyboard.press("ArrowDown");
      await activate(page, `${condition(1)} ${byTestId("condition-evidence")}`);
      await previewLoaded(page, condition(1));
      expect(await page.getAttribute(`${condition(1)} iframe`, "title")).toBe("Transcript");
      await check(page, "evidence");
      await activate(page, `${condition(1)} ${byTestId("condition-settle")}`);
      await page.waitForSelector(`${condition(1)}[data-status="met"]`);
      // The second waived, with a note: the offer is now unconditional.
      await tabTo(page, `${condition(2)} ${byTestId("condition-met")}`);
      await pressFor(page, "ArrowDown", `${condition(2)} ${byTestId("condition-waived")}:checked`);
      await tabTo(page, `${condition(2)} textarea`);
      await page.keyboard.type("An equivalent certificate was accepted.");
      await activate(page, `${condition(2)} ${byTestId("condition-settle")}`);
      await page.waitForSelector(byTestId("offer-unconditional"));
      expect(await page.locator(byTestId("condition-settle")).count()).toBe(0);
      const conditions = await admin.call<{
        conditions: { status: string; note: string | null }[];
      }>("GET", `/applications/${applicationId}/conditions/`);
      expect(conditions.conditions.map((c) => c.status)).toEqual(["met", "waived"]);
      await check(page, "unconditional");

      // The signed letter, in the page, with the id and digest it can be checked by.
      await activate(page, byTestId("offer-letter-open"));
      await page.waitForSelector(byTestId("offer-letter-signature"));
      await previewLoaded(page, byTestId("offer-letter"));
      const signature = (await page.textContent(byTestId("offer-letter-signature"))) ?? "";
      expect(signature).toMatch(/[0-9a-f]{64}/);
      await check(page, "letter");

      // Nobody has asked to defer yet: the office's list says so.
      await activate(page, 'a[href="/portal/staff/deferrals"]');
      await page.waitForSelector(byTestId("deferrals-empty"));
      expect(await page.locator(byTestId("staff-deferral")).count()).toBe(0);
      await check(page, "deferrals-empty");
      await page.goBack();
      await page.waitForSelector(byTestId("offer-letter-open"));

      // The applicant asks to start in Autumn 2032; the office's list shows it with its seats.
      const asked = await first.as("POST", `/applications/${applicationId}/deferrals/`, {
        toIntakeId: later.id,
        reason: "Military service",
      });
      await activate(page, 'a[href="/portal/staff/deferrals"]');
      // The row first, then the seats it reads for its intake.
      await page.waitForSelector(`${byTestId("staff-deferral-seats")}[data-available]`);
      const row = (await page.textContent(byTestId("staff-deferral"))) ?? "";
      expect(row).toContain("Autumn 2031 → Autumn 2032");
      expect(row).toContain("Military service");
      expect(row).toContain("0 of 1");
      await check(page, "deferrals");
      // Refused, with a note to the applicant.
      await activate(page, `${byTestId("staff-deferral")} a`);
      await page.waitForSelector(byTestId("deferral-seats-to"));
      await tabTo(page, `#deferral-note-${asked.id}`);
      await page.keyboard.type("Not for this intake.");
      await activate(page, byTestId("deferral-refuse"));
      await page.waitForSelector(`${byTestId("deferral")}[data-status="refused"]`);
      await check(page, "deferral-refused");

      // Asked again: approving is refused for want of a seat, in words, with the seats in view.
      await first.as("POST", `/applications/${applicationId}/deferrals/`, { toIntakeId: later.id });
      await page.reload();
      await page.waitForSelector('[data-testid="deferral-seats-to"][data-available="0"]');
      await activate(page, byTestId("deferral-approve"));
      await page.waitForSelector(`${byTestId("deferral-problem")}[data-code="NO_SEATS_AVAILABLE"]`);
      expect(await page.textContent(byTestId("deferral-problem"))).toBe(
        "There is no seat left in that intake.",
      );
      await check(page, "deferral-no-seat");
      // The same page in French (the switch reloads it): the refusal, the seats and the settled
      // offer in its words.
      await activate(page, byTestId("language-fr"));
      await page.waitForSelector('html[lang="fr"]');
      await page.waitForSelector('[data-testid="deferral-seats-to"][data-available="0"]');
      await activate(page, byTestId("deferral-approve"));
      await page.waitForSelector(`${byTestId("deferral-problem")}[data-code="NO_SEATS_AVAILABLE"]`);
      expect(await page.textContent(byTestId("deferral-problem"))).toBe(
        "Il ne reste aucune place à cette rentrée.",
      );
      expect(await page.textContent(byTestId("offer-unconditional"))).toContain(
        "l'offre est ferme depuis le",
      );
      expect(await page.textContent(byTestId("deferrals"))).toContain("Places en Autumn 2032");
      await check(page, "deferral-no-seat-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForSelector('html[lang="en"]');
      await page.waitForSelector(byTestId("deferral-approve"));
      // A second seat in Autumn 2032, then approved: the place moves.
      await admin.call("PATCH", `/catalog/intakes/${later.id}/`, { capacity: 2 });
      await activate(page, byTestId("deferral-approve"));
      await page.waitForSelector(byTestId("deferral-decided"));
      await page.waitForSelector(`${byTestId("deferral")}[data-status="approved"]`);
      const moved = await admin.call<{ intake: { id: string } }>(
        "GET",
        `/applications/${applicationId}/`,
      );
      expect(moved.intake.id).toBe(later.id);
      await check(page, "deferral-approved");
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);

    test("a conditional offer without conditions is refused beside its field; a rejection names its reason code", async () => {
      const { base, admin, mailbox } = ctx();
      const { applicationId } = await reviewReadyApplication(base, admin, mailbox, {
        programName: "Offer Reasons",
      });
      const page = await adminOn(applicationId, "decision");
      await tabTo(page, byTestId("decision-offer"));
      await pressFor(page, "ArrowDown", `${byTestId("decision-conditional_offer")}:checked`);
      await activate(page, byTestId("decide"));
      await page.waitForSelector(`${byTestId("decision-problem")}.error-summary`);
      expect(await page.textContent(byTestId("decision-problem"))).toContain(
        "Write each condition on a line of its own",
      );
      expect(await page.getAttribute(byTestId("decision-conditions"), "aria-invalid")).toBe("true");
      await check(page, "conditions-refused");
      // In French (the switch reloads the page), the same refusal in French words, beside the
      // same field.
      await activate(page, byTestId("language-fr"));
      await page.waitForSelector('html[lang="fr"]');
      await page.waitForSelector(byTestId("decision"));
      await tabTo(page, byTestId("decision-offer"));
      await pressFor(page, "ArrowDown", `${byTestId("decision-conditional_offer")}:checked`);
      await activate(page, byTestId("decide"));
      await page.waitForSelector(`${byTestId("decision-problem")}.error-summary`);
      expect(await page.textContent(byTestId("decision-problem"))).toContain(
        "Écrivez chaque condition sur sa propre ligne",
      );
      expect(await page.textContent("#decision-conditions-error")).toContain(
        "Écrivez chaque condition sur sa propre ligne",
      );
      await check(page, "conditions-refused-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForSelector('html[lang="en"]');
      // Rejected instead, with the office's reason code (the reload chose "offer" again).
      await page.waitForSelector(byTestId("decision"));
      await tabTo(page, byTestId("decision-offer"));
      await pressFor(page, "ArrowDown", `${byTestId("decision-conditional_offer")}:checked`);
      await pressFor(page, "ArrowDown", `${byTestId("decision-waitlist")}:checked`);
      await pressFor(page, "ArrowDown", `${byTestId("decision-reject")}:checked`);
      await tabTo(page, byTestId("decision-reason-code"));
      await page.keyboard.press("ArrowDown");
      expect(
        await page.$eval("#decision-reason-code", (el) => (el as HTMLSelectElement).value),
      ).toBe("academic_requirements");
      await check(page, "reject-reason");
      await activate(page, byTestId("decide"));
      await page.waitForSelector('[data-testid="application-status"][data-status="rejected"]');
      const history = await admin.call<{ results: { to: string; reasonCode: string | null }[] }>(
        "GET",
        `/applications/${applicationId}/history/`,
      );
      expect(history.results.at(-1)).toMatchObject({
        to: "rejected",
        reasonCode: "academic_requirements",
      });
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("a condition not met ends the offer, after a second press", async () => {
      const { base, admin, mailbox } = ctx();
      const { applicationId } = await reviewReadyApplication(base, admin, mailbox, {
        programName: "Offer Not Met",
      });
      await admin.call("POST", `/applications/${applicationId}/decision/`, {
        decision: "conditional_offer",
        conditions: ["A final grade of at least B in Mathematics"],
      });
      const page = await adminOn(applicationId, "condition-row");
      await tabTo(page, byTestId("condition-met"));
      await pressFor(page, "ArrowDown", `${byTestId("condition-waived")}:checked`);
      await pressFor(page, "ArrowDown", `${byTestId("condition-not_met")}:checked`);
      await activate(page, byTestId("condition-settle"));
      await page.waitForSelector(byTestId("condition-not-met-confirm"));
      // Nothing has moved yet.
      const before = await admin.call<{ status: string }>("GET", `/applications/${applicationId}/`);
      expect(before.status).toBe("conditionally_offered");
      await check(page, "not-met-confirm");
      await activate(page, byTestId("condition-settle"));
      await page.waitForSelector(
        '[data-testid="application-status"][data-status="conditions_not_met"]',
      );
      await page.waitForSelector(`${byTestId("condition-row")}[data-status="not_met"]`);
      expect(await page.locator(byTestId("condition-settle")).count()).toBe(0);
      await check(page, "not-met");
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
