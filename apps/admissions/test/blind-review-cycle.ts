import { publishEvents } from "../src/modules/events/service.ts";
import { fanOut } from "../src/modules/webhooks/service.ts";
import {
  fromTheirAddress,
  type Identity,
  identifiedApplication,
  identifiedDraft,
  reviewedProgram,
} from "./blind-review-support.ts";
import { pdf } from "./files.ts";
import { createSlot, slotBody } from "./interviews-support.ts";
import { namedReferee, sendFile, sendText } from "./references-support.ts";
import {
  type ApplicationJson,
  createIntake,
  type Session,
  signIn,
  type TestContext,
} from "./support.ts";
import { call, decide, expectJson } from "./workflow-support.ts";

/*
 * One admissions cycle on a blind-review program, seeded through the API as people make it,
 * so that every kind of record a reviewer can be shown exists with real ids: applications in
 * every stage, documents and referees' files named after the applicant, payments with
 * receipts, an interview, offers with conditions, a deferral, signed letters, a data-rights
 * request, a webhook with deliveries. Each applicant has distinctive details (Identity).
 */

/** One blind applicant's application and the ids of everything hanging off it. */
export type Subject = {
  tag: string;
  session: Session;
  application: ApplicationJson;
  id: Identity;
  documentIds: string[];
  paymentIds: string[];
  referenceIds: string[];
  interviewIds: string[];
  conditionIds: string[];
  deferralIds: string[];
  /** Signed letters and receipts issued to the applicant: id and SHA-256 of the file. */
  letters: { id: string; sha256: string }[];
  dataRequestIds: string[];
};

const subjectOf = (
  tag: string,
  made: Awaited<ReturnType<typeof identifiedDraft>>,
  extra: Partial<Subject> = {},
): Subject => ({
  tag,
  session: made.session,
  application: made.application,
  id: made.id,
  documentIds: [made.doc.id],
  paymentIds: [made.payment.id],
  referenceIds: [],
  interviewIds: [],
  conditionIds: [],
  deferralIds: [],
  letters: [],
  dataRequestIds: [],
  ...extra,
});

/** A signed PDF as its applicant downloads it. */
async function signedPdf(ctx: TestContext, who: Session, path: string) {
  const res = await call(ctx, who, "GET", `/api/v1/signed-documents/${path}`);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return {
    id: res.headers.get("x-document-id") ?? "",
    sha256: res.headers.get("x-document-sha256") ?? "",
  };
}

/** A referee's answer went in (204). */
async function answered(res: Response) {
  if (res.status !== 204) throw new Error(`reference: ${res.status} ${await res.text()}`);
}

export async function blindCycle(ctx: TestContext) {
  const admin = await signIn(ctx, "admin");
  const reviewer = await signIn(ctx, "reviewer");
  const { program, intake } = await reviewedProgram(ctx, admin, reviewer, true);
  const later = await createIntake(ctx, admin, program.id, { closesInDays: 400 });
  const at = (s: { application: { id: string } }, rest = "") =>
    `/api/v1/applications/${s.application.id}/${rest}`;

  // Under review and interviewing: two referees (one writes, one uploads a file named after
  // the applicant), the reviewer's review, an interview with the reviewer on its panel.
  const a = await identifiedDraft(ctx, admin, intake.id, "Alpha");
  const wrote = await namedReferee(ctx, a.session, a.application.id);
  await answered(await sendText(ctx, wrote.token));
  const uploaded = await namedReferee(ctx, a.session, a.application.id);
  await answered(await sendFile(ctx, uploaded.token, pdf(900), "Reference QuillfeatherAlpha.pdf"));
  await expectJson(await call(ctx, a.session, "POST", at(a, "submit/"), {}));
  await fromTheirAddress(ctx, a.application.id, a.id.clientIp);
  const assignment = { reviewerId: reviewer.user.id };
  await expectJson(await call(ctx, admin, "POST", at(a, "assignments/"), assignment), 201);
  const review = { scores: { academic_record: 4 }, recommendation: "offer" };
  await expectJson(await call(ctx, reviewer, "PUT", at(a, "reviews/mine/"), review));
  // Six minutes from now: the walk scores it once the clock has passed its start.
  const slot = await createSlot(ctx, admin, slotBody(ctx, [reviewer], 0.1));
  const invite = { applicationId: a.application.id };
  await expectJson(await call(ctx, admin, "POST", `/api/v1/interviews/${slot.id}/invite/`, invite));
  const alpha = subjectOf("Alpha", a, {
    referenceIds: [wrote.reference.id, uploaded.reference.id],
    interviewIds: [slot.id],
    letters: [await signedPdf(ctx, a.session, `receipts/${a.payment.id}/`)],
  });

  // Offered and accepted, then a deferral asked for: the offer letter exists.
  const b = await identifiedApplication(ctx, admin, reviewer, intake.id, "Bravo");
  await expectJson(await decide(ctx, admin, b.application.id, { decision: "offer" }));
  await expectJson(await call(ctx, b.session, "POST", at(b, "accept/"), {}));
  const deferral = await expectJson<{ id: string }>(
    await call(ctx, b.session, "POST", at(b, "deferrals/"), {
      toIntakeId: later.id,
      reason: "Gap year",
    }),
    201,
  );
  const bravo = subjectOf("Bravo", b, {
    deferralIds: [deferral.id],
    letters: [await signedPdf(ctx, b.session, `offer-letters/${b.application.id}/`)],
  });

  // Conditionally offered: conditions, and a conditional offer letter.
  const c = await identifiedApplication(ctx, admin, reviewer, intake.id, "Charlie");
  const conditional = await expectJson<ApplicationJson>(
    await decide(ctx, admin, c.application.id, {
      decision: "conditional_offer",
      conditions: ["Final transcript showing a 2:1 or better"],
    }),
  );
  const { conditions } = await expectJson<{ conditions: { id: string }[] }>(
    await call(ctx, admin, "GET", at(c, "conditions/")),
  );
  const charlie = subjectOf("Charlie", c, {
    application: conditional,
    conditionIds: conditions.map((condition) => condition.id),
    letters: [await signedPdf(ctx, c.session, `offer-letters/${c.application.id}/`)],
  });

  // Waitlisted, and asking for the account's erasure (a data-rights request).
  const d = await identifiedApplication(ctx, admin, reviewer, intake.id, "Delta");
  await expectJson(await decide(ctx, admin, d.application.id, { decision: "waitlist" }));
  const erasure = await expectJson<{ id: string }>(
    await call(ctx, d.session, "POST", "/api/v1/data-rights/erasure/", {
      password: "correct-horse-battery",
    }),
    201,
  );
  const delta = subjectOf("Delta", d, { dataRequestIds: [erasure.id] });

  // Under review by the reviewer, nothing more yet: the reviewer's review is saved on it.
  const india = subjectOf(
    "India",
    await identifiedApplication(ctx, admin, reviewer, intake.id, "India"),
  );

  // Submitted, nobody assigned: what the reviewer's own moves are made on.
  const echo = subjectOf(
    "Echo",
    await identifiedApplication(ctx, admin, reviewer, intake.id, "Echo", false),
  );
  const foxtrot = subjectOf(
    "Foxtrot",
    await identifiedApplication(ctx, admin, reviewer, intake.id, "Foxtrot", false),
  );
  // Drafts whose fee is not paid yet, each with a payment pending (staff settle payments).
  const golf = subjectOf("Golf", await identifiedDraft(ctx, admin, intake.id, "Golf", false));
  const hotel = subjectOf("Hotel", await identifiedDraft(ctx, admin, intake.id, "Hotel", false));

  // An endpoint with deliveries of the events above (admins only).
  const endpoint = await expectJson<{ id: string }>(
    await call(ctx, admin, "POST", "/api/v1/webhooks/", {
      url: "https://hooks.example.org/h",
      eventTypes: ["*"],
    }),
    201,
  );
  await publishEvents(ctx.db, fanOut);
  const deliveries = await expectJson<{ results: { id: string }[] }>(
    await call(ctx, admin, "GET", `/api/v1/webhooks/${endpoint.id}/deliveries/`),
  );
  return {
    admin,
    reviewer,
    program,
    intake,
    later,
    subjects: [alpha, bravo, charlie, delta, echo, foxtrot, golf, hotel, india],
    webhook: { id: endpoint.id, deliveryIds: deliveries.results.slice(0, 1).map((row) => row.id) },
  };
}

export type BlindCycle = Awaited<ReturnType<typeof blindCycle>>;
