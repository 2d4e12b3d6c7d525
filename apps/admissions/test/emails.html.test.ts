/**
 * The HTML part of an email makes links of the platform's own links only: text a person typed
 * (a name, a programme's name, a note) is escaped and never becomes an anchor, whatever it
 * holds. Phishing in the institution's name (a referee's email saying "Dear <name>," where the
 * name is a link) is the threat. Every template is rendered with hostile text here, and two are
 * followed through delivery over SMTP.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  emailChangedNotice,
  emailChangeLinkEmail,
  emailChangeRequestedNotice,
  passwordChangedEmail,
  passwordResetEmail,
  verificationEmail,
} from "../src/modules/account/internal/emails.ts";
import { dataRightsEmail } from "../src/modules/data-rights/internal/emails.ts";
import { mfaEmail } from "../src/modules/mfa/internal/emails.ts";
import { htmlOf } from "../src/modules/outbox/internal/html.ts";
import { emailFor } from "../src/modules/outbox/internal/templates.ts";
import { deliverDueEmails, smtpMailer } from "../src/modules/outbox/service.ts";
import { profileUpdatedEmail } from "../src/modules/profile/service.ts";
import {
  referenceReminderEmail,
  referenceRequestEmail,
} from "../src/modules/references/internal/emails.ts";
import type { Application, ApplicationStatus } from "../src/modules/workflow/model.ts";
import { PORTAL } from "./account-support.ts";
import { addReferee } from "./references-support.ts";
import { startSmtpServer } from "./smtp.ts";
import { createDraft, json, PASSWORD, setupApp, signIn, uniqueEmail } from "./support.ts";
import { intakeWithSeats, testJobs } from "./workflow-support.ts";

const ctx = await setupApp({ portalUrl: PORTAL });
const smtp = await startSmtpServer();
const mailer = smtpMailer(smtp.url, "Admissions Office <admissions@example.org>");
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

/** One line of text as the API now accepts it: no control characters, but links and markup. */
const HOSTILE = `Ada <b>Lovelace</b> "&" https://evil.example/login?next=${PORTAL}/account/security`;
const TOKEN = "n6cXy0cQGQeVQ2m1mQ3J4Y1nE5hQq0f3J2m9u0yJ8mA";
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)">/g)].map((m) => m[1]);

/** The HTML of an email has anchors for its declared links only, and the hostile text escaped. */
function expectSafe(email: { subject: string; body: string; links?: readonly string[] }) {
  const links = email.links ?? [];
  const html = htmlOf(email.body, email.subject, links);
  for (const link of links) expect(link).toStartWith(`${PORTAL}/`);
  expect(hrefs(html).toSorted()).toEqual([...new Set(links)].toSorted());
  expect(html).not.toContain("<b>");
  expect(html).not.toMatch(/href="https:\/\/evil/);
  if (email.body.includes("<b>")) expect(html).toContain("&lt;b&gt;Lovelace&lt;/b&gt;");
  return html;
}

describe("htmlOf: the platform's links become anchors, nothing else does", () => {
  test("a URL in the text is text; the declared link is an anchor", () => {
    const link = `${PORTAL}/account/verify-email?token=${TOKEN}`;
    const html = htmlOf(`Dear ${HOSTILE},\n\nOpen this link:\n\n${link}`, "Subject", [link]);
    expect(hrefs(html)).toEqual([link]);
    expect(html).toContain("https://evil.example/login");
  });

  test("no declared links, no anchors: whatever the text holds", () => {
    const html = htmlOf(`See https://evil.example and ${PORTAL}/account/security.`, "S", []);
    expect(hrefs(html)).toEqual([]);
  });

  test("a declared link inside a longer URL, or with userinfo, is not made an anchor", () => {
    const link = `${PORTAL}/account/security`;
    const text = `Go to ${link}.evil.example/x or ${link}@evil.example, or ${link}`;
    expect(hrefs(htmlOf(text, "S", [link]))).toEqual([link]);
    expect(htmlOf(text, "S", [link])).toContain(`${link}.evil.example/x`);
  });

  test("a link with characters HTML must escape stays one working anchor", () => {
    const link = `${PORTAL}/account/data?a=1&b=2`;
    expect(hrefs(htmlOf(`Here: ${link}`, "S", [link]))).toEqual([
      `${PORTAL}/account/data?a=1&amp;b=2`,
    ]);
  });
});

describe("every template, with hostile text where people's text goes", () => {
  const to = { fullName: HOSTILE };
  const at = Date.parse("2026-03-01T10:00:00Z");

  test("account emails: verification, reset (self and admin), changes and notices", () => {
    for (const email of [
      verificationEmail(to, PORTAL, TOKEN),
      passwordResetEmail(to, PORTAL, TOKEN, "self"),
      passwordResetEmail(to, PORTAL, TOKEN, "admin"),
      passwordChangedEmail(to, PORTAL, at, "changed"),
      passwordChangedEmail(to, PORTAL, at, "reset"),
      emailChangeLinkEmail(to, PORTAL, TOKEN),
      emailChangeRequestedNotice(to, PORTAL, "new@example.org"),
      emailChangedNotice(to, "new@example.org", at),
    ]) {
      expectSafe(email);
    }
    expect(verificationEmail(to, PORTAL, TOKEN).links).toEqual([
      `${PORTAL}/account/verify-email?token=${TOKEN}`,
    ]);
  });

  test("the referee's request and reminder: the referee's and the applicant's names", () => {
    const about = {
      refereeName: HOSTILE,
      applicantName: HOSTILE,
      programName: HOSTILE,
      term: HOSTILE,
      expiresAt: "2026-04-01T00:00:00.000Z",
    };
    for (const email of [
      referenceRequestEmail(about, PORTAL, TOKEN),
      referenceReminderEmail(about, PORTAL, TOKEN),
    ]) {
      const html = expectSafe(email);
      expect(hrefs(html)).toEqual([`${PORTAL}/references/write?token=${TOKEN}`]);
    }
  });

  test("status emails: the applicant's name, the programme, the offer's conditions", () => {
    const statuses: ApplicationStatus[] = [
      "submitted",
      "offered",
      "conditionally_offered",
      "waitlisted",
      "rejected",
      "accepted",
      "declined",
      "offer_expired",
      "enrolled",
      "conditions_not_met",
      "withdrawn",
    ];
    for (const status of statuses) {
      const application = {
        id: crypto.randomUUID(),
        status,
        applicant: { id: crypto.randomUUID(), email: "a@example.org", fullName: HOSTILE },
        program: { id: crypto.randomUUID(), code: "X", name: HOSTILE },
        intake: { id: crypto.randomUUID(), term: HOSTILE, deadline: "2026-06-30T00:00:00.000Z" },
        offer: { respondBy: "2026-05-01T00:00:00.000Z", conditions: [HOSTILE, HOSTILE] },
        waitlistPosition: 3,
        updatedAt: "2026-03-01T00:00:00.000Z",
      } as unknown as Application;
      const email = emailFor(application);
      expect(email, status).not.toBeNull();
      if (email) expectSafe(email);
    }
  });

  test("MFA, data rights (an admin's note) and profile notices", () => {
    for (const event of [
      "mfa.enabled",
      "mfa.disabled",
      "mfa.recovery_codes_regenerated",
      "mfa.recovery_code_used",
    ] as const) {
      expect(hrefs(expectSafe(mfaEmail(PORTAL, event, "2026-03-01T10:00:00.000Z")))).toEqual([
        `${PORTAL}/account/security`,
      ]);
    }
    for (const event of [
      "data.exported",
      "erasure.requested",
      "erasure.cancelled",
      "erasure.rejected",
      "erasure.completed",
    ] as const) {
      expectSafe(
        dataRightsEmail(event, {
          at: "2026-03-01T10:00:00.000Z",
          portalUrl: PORTAL,
          note: `${HOSTILE}\n\n${HOSTILE}`,
          retainUntil: "2033-03-01T00:00:00.000Z",
        }),
      );
    }
    expect(hrefs(expectSafe(profileUpdatedEmail(PORTAL, ["legalName", "address"])))).toEqual([
      `${PORTAL}/account/profile`,
    ]);
  });
});

describe("as delivered over SMTP", () => {
  test("a verification email and a referee's request: the names are text, the links anchors", async () => {
    const admin = await signIn(ctx, "admin");
    const { intake } = await intakeWithSeats(ctx, admin);
    const email = uniqueEmail("hostile");
    await ctx.app.handle(
      json("POST", "/api/v1/auth/register/", { email, password: PASSWORD, fullName: HOSTILE }),
    );
    const applicant = await signIn(ctx);
    await ctx.db.run(
      (sql) => sql`UPDATE users SET full_name = ${HOSTILE} WHERE id = ${applicant.user.id}`,
    );
    const draft = await createDraft(ctx, applicant, intake.id);
    const referee = uniqueEmail("referee");
    const named = await addReferee(ctx, applicant, draft.id, { email: referee, name: HOSTILE });
    expect(named.status).toBe(201);
    const jobs = testJobs(ctx, mailer);
    while ((await deliverDueEmails({ ...jobs, policy: jobs.delivery })).sent > 0) {}
    const [verification] = smtp.messages.filter((m) => m.to.includes(email));
    const [request] = smtp.messages.filter((m) => m.to.includes(referee));
    expect(hrefs(verification?.html ?? "")).toEqual([
      expect.stringMatching(new RegExp(`^${PORTAL}/account/verify-email\\?token=[\\w-]+$`)),
    ]);
    expect(hrefs(request?.html ?? "")).toEqual([
      expect.stringMatching(new RegExp(`^${PORTAL}/references/write\\?token=[\\w-]+$`)),
    ]);
    for (const message of [verification, request]) {
      expect(message?.html).toContain("https://evil.example/login");
      expect(message?.html).not.toContain("<b>");
    }
  });
});
