import { describe, expect, test } from "bun:test";
import { blindCycle, type Subject } from "./blind-review-cycle.ts";
import {
  APPLICANTS_MOVES,
  NOT_ABOUT_APPLICATIONS,
  NOT_FOR_REVIEWERS,
} from "./blind-review-routes.ts";
import { leaksIn } from "./blind-review-support.ts";
import { type Fillers, type Operation, operationsOf, urlsFor } from "./openapi-walk.ts";
import { responseText } from "./response-text.ts";
import { json, setupApp } from "./support.ts";
import { call } from "./workflow-support.ts";

/*
 * Blind review, route by route from the app's own OpenAPI document: a reviewer of a
 * blind-review program calls every operation with the real ids of a seeded cycle, and no
 * answer (headers, JSON, PDF text, CSV, archives) may carry anything that identifies one of
 * its applicants. A route added later is walked too; one the walker cannot fill, or that no
 * list accounts for (blind-review-routes.ts), fails the walk instead of being passed over.
 */

const ctx = await setupApp();
const cycle = await blindCycle(ctx);
const { admin, reviewer, subjects } = cycle;
const identities = subjects.map((subject) => subject.id);
const operations = await operationsOf(ctx);
const bySubject = (tag: string) => subjects.find((subject) => subject.tag === tag) as Subject;

/** Each parameter, by what it names, filled with one subject's ids. */
const fillersFor = (s: Subject): Fillers => ({
  path: {
    "applications/{id}": () => [s.application.id],
    "offer-letters/{applicationId}": () => [s.application.id],
    "documents/{documentId}": () => s.documentIds,
    "payments/{id}": () => s.paymentIds,
    "receipts/{paymentId}": () => s.paymentIds,
    "references/{referenceId}": () => s.referenceIds,
    "interviews/{interviewId}": () => s.interviewIds,
    "conditions/{conditionId}": () => s.conditionIds,
    "deferrals/{deferralId}": () => s.deferralIds,
    "verify/{id}": () => s.letters.map((letter) => letter.id),
    "requests/{id}": () => s.dataRequestIds,
    "programs/{id}": () => [s.application.program.id],
    "intakes/{id}": () => [s.application.intake.id],
    "assignments/{reviewerId}": () => [reviewer.user.id],
    "users/{id}": () => [reviewer.user.id],
    "webhooks/{id}": () => [cycle.webhook.id],
    "deliveries/{deliveryId}": () => cycle.webhook.deliveryIds,
    "reasons/{kind}": () => ["rejection"],
    "{kind}/{code}": () => ["no-such-code"],
  },
  query: {
    applicationId: () => [s.application.id],
    programId: () => [s.application.program.id],
    intakeId: () => [s.application.intake.id],
    userId: () => [s.application.applicant.id],
    sha256: () => s.letters.map((letter) => letter.sha256),
    reviewerId: () => ["me"],
    // The program's code finds its applications (their names do not: blind-review.test.ts).
    search: () => [s.application.program.code],
    // The clash check's slot (admins' only): a day on, half an hour, the reviewer on its panel.
    startsAt: () => [new Date(ctx.clock.now() + 86_400_000).toISOString()],
    durationMinutes: () => ["30"],
    panel: () => [reviewer.user.id],
  },
});

/** Every call of `op` about every subject (each URL once): its status and what it let out. */
async function walk(op: Operation, body?: unknown) {
  const urls = new Set<string>();
  const unfilled = new Set<string>();
  for (const subject of subjects) {
    const filled = urlsFor(op, fillersFor(subject));
    for (const url of filled.urls) urls.add(url);
    for (const slot of filled.unfilled) unfilled.add(slot);
  }
  const answers = [];
  for (const url of urls) {
    // The session cookie as well as the token: a cookie session's own route (its CSRF token)
    // answers only to the cookie.
    const credentials = { token: reviewer.accessToken, cookie: reviewer.cookie };
    const res = await ctx.app.handle(json(op.method, url, body, credentials));
    answers.push({ url, status: res.status, leaks: leaksIn(await responseText(res), identities) });
  }
  return { answers, unfilled: [...unfilled] };
}

const app = (tag: string, rest = "") =>
  `/api/v1/applications/${bySubject(tag).application.id}/${rest}`;
const payment = (tag: string, rest = "") =>
  `/api/v1/payments/${bySubject(tag).paymentIds[0]}/${rest}`;
const asReviewer = (method: string, path: string, body: unknown) => () =>
  call(ctx, reviewer, method, path, body);

/** The reviewer's offer letter of Bravo, sent to the public check as a browser's form does. */
async function verifyLetter(): Promise<Response> {
  const path = `/api/v1/signed-documents/offer-letters/${bySubject("Bravo").application.id}/`;
  const letter = await (await call(ctx, reviewer, "GET", path)).arrayBuffer();
  const form = new FormData();
  form.set("file", new Blob([letter], { type: "application/pdf" }), "letter.pdf");
  const url = "http://localhost/api/v1/signed-documents/verify/";
  return ctx.app.handle(new Request(url, { method: "POST", body: form }));
}

/** Alpha's interview scored once it has started (it starts six minutes after seeding). */
async function scoreInterview(): Promise<Response> {
  ctx.clock.advance(10 * 60_000);
  try {
    const path = `/api/v1/interviews/${bySubject("Alpha").interviewIds[0]}/scores/mine/`;
    return await call(ctx, reviewer, "PUT", path, { score: 4 });
  } finally {
    ctx.clock.advance(-10 * 60_000);
  }
}

/**
 * The writes a reviewer makes, each made once for real, in this order (Golf's payment fails
 * before its fee is waived; a conflict declared on Echo ends the reviewer's part in it last).
 */
const REVIEWER_WRITES: [string, () => Promise<Response>][] = [
  [
    "PUT /api/v1/applications/{id}/reviews/mine/",
    asReviewer("PUT", app("India", "reviews/mine/"), {
      scores: { academic_record: 5 },
      recommendation: "offer",
    }),
  ],
  [
    "POST /api/v1/applications/{id}/documents/{documentId}/review/",
    asReviewer("POST", app("Alpha", `documents/${bySubject("Alpha").documentIds[0]}/review/`), {
      decision: "verified",
    }),
  ],
  ["PUT /api/v1/interviews/{interviewId}/scores/mine/", scoreInterview],
  [
    "POST /api/v1/applications/{id}/transitions/",
    asReviewer("POST", app("Echo", "transitions/"), { to: "under_review" }),
  ],
  [
    "POST /api/v1/staff/applications/bulk-transitions/",
    asReviewer("POST", "/api/v1/staff/applications/bulk-transitions/", {
      applicationIds: [bySubject("Foxtrot").application.id],
      to: "under_review",
    }),
  ],
  [
    "POST /api/v1/payments/{id}/fail/",
    asReviewer("POST", payment("Golf", "fail/"), { reason: "Bounced" }),
  ],
  [
    "POST /api/v1/applications/{id}/fee-waiver/",
    asReviewer("POST", app("Golf", "fee-waiver/"), { reason: "Hardship" }),
  ],
  ["POST /api/v1/payments/{id}/refresh/", asReviewer("POST", payment("Hotel", "refresh/"), {})],
  ["POST /api/v1/payments/{id}/confirm/", asReviewer("POST", payment("Hotel", "confirm/"), {})],
  [
    "POST /api/v1/payments/{id}/refunds/",
    asReviewer("POST", payment("Hotel", "refunds/"), { amount: 100, reason: "Overcharged" }),
  ],
  ["POST /api/v1/signed-documents/verify/", verifyLetter],
  [
    "POST /api/v1/applications/{id}/conflict-of-interest/",
    asReviewer("POST", app("Echo", "conflict-of-interest/"), { reason: "A relative" }),
  ],
];

describe("the walk covers the OpenAPI document", () => {
  test("every operation is walked or listed, and every list names only operations there are", () => {
    const writes = new Set(REVIEWER_WRITES.map(([key]) => key));
    const lists = [NOT_FOR_REVIEWERS, APPLICANTS_MOVES, NOT_ABOUT_APPLICATIONS, writes];
    const unaccounted = operations
      .filter((op) => op.method !== "GET" && !lists.some((list) => list.has(op.key)))
      .map((op) => op.key);
    expect(unaccounted).toEqual([]);
    const known = new Set(operations.map((op) => op.key));
    expect(lists.flatMap((list) => [...list]).filter((key) => !known.has(key))).toEqual([]);
    expect(operations.filter((op) => op.method === "GET").length).toBeGreaterThan(50);
  });

  // A walk that found nothing proves nothing unless the same reads, by someone entitled to
  // see the applicant, are found to name them: in JSON, a PDF's compressed text, a header.
  test("its detector finds the applicants in an admin's reads of the same routes", async () => {
    const [alpha, bravo] = [bySubject("Alpha"), bySubject("Bravo")];
    const read = async (path: string) =>
      leaksIn(await responseText(await call(ctx, admin, "GET", path)), [alpha.id, bravo.id]);
    // The application says everything but the address the moves came from (the history's).
    const all = alpha.id.strings.filter((s) => s !== alpha.id.clientIp);
    expect(await read(app("Alpha"))).toEqual(all);
    expect(await read(app("Alpha", "history/"))).toEqual([alpha.id.clientIp]);
    const file = app("Alpha", `documents/${alpha.documentIds[0]}/file/`);
    expect(await read(file)).toEqual(["QuillfeatherAlpha"]);
    const reference = `/api/v1/references/${alpha.referenceIds[1]}/`;
    expect(await read(reference)).toEqual(["QuillfeatherAlpha"]);
    const letter = `/api/v1/signed-documents/offer-letters/${bravo.application.id}/`;
    expect(await read(letter)).toEqual([bravo.id.name, "QuillfeatherBravo"]);
  });
});

describe("a blind reviewer reads every GET route: nothing identifies an applicant", () => {
  for (const op of operations.filter((o) => o.method === "GET" && !NOT_FOR_REVIEWERS.has(o.key))) {
    test(op.key, async () => {
      const { answers, unfilled } = await walk(op);
      expect(unfilled).toEqual([]);
      // Reached: at least one call got through (a route nobody can fill proves nothing).
      expect(
        answers.some((a) => a.status === 200),
        JSON.stringify(answers),
      ).toBe(true);
      expect(answers.filter((a) => a.leaks.length > 0)).toEqual([]);
    });
  }
});

describe("what is not a reviewer's is refused to one", () => {
  for (const op of operations.filter(
    (o) => NOT_FOR_REVIEWERS.has(o.key) || APPLICANTS_MOVES.has(o.key),
  )) {
    test(op.key, async () => {
      const { answers, unfilled } = await walk(op, op.method === "GET" ? undefined : {});
      expect(unfilled).toEqual([]);
      const allowed = APPLICANTS_MOVES.has(op.key) ? [403, 404, 409] : [403, 404];
      expect(answers.filter((a) => !allowed.includes(a.status) || a.leaks.length > 0)).toEqual([]);
      expect(answers.some((a) => a.status === 403 || a.status === 404)).toBe(true);
    });
  }
});

describe("what reaches a blind reviewer without asking", () => {
  test("the emails they were sent (assignments) do not name an applicant", async () => {
    const emails = (await ctx.db.run(
      (sql) =>
        sql`SELECT subject, body FROM email_outbox WHERE to_address = ${reviewer.user.email}`,
    )) as { subject: string; body: string }[];
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.filter((e) => leaksIn(`${e.subject}\n${e.body}`, identities).length > 0)).toEqual(
      [],
    );
  });
});

describe("a blind reviewer's own writes answer without the applicant", () => {
  for (const [key, send] of REVIEWER_WRITES) {
    test(key, async () => {
      const res = await send();
      const text = await responseText(res);
      expect(res.status, text).toBeLessThan(300);
      expect(leaksIn(text, identities)).toEqual([]);
    });
  }
});
