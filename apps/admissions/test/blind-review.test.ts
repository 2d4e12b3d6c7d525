import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { createUser } from "../src/modules/users/service.ts";
import { pdf, uploaded } from "./files.ts";
import { newPayment } from "./payments-support.ts";
import {
  type ApplicationJson,
  createDraft,
  createIntake,
  createProgram,
  logIn,
  PASSWORD,
  type Paged,
  type Session,
  setupApp,
  signIn,
  TEST_PASSWORD_COST,
  verifyEmail,
} from "./support.ts";
import { call, decide, expectJson } from "./workflow-support.ts";

const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const reviewer = await signIn(ctx, "reviewer");

const RUBRIC = {
  scale: { min: 1, max: 5 },
  criteria: [{ key: "academic_record", label: "Academic record", weight: 1 }],
};

/** What identifies an applicant: none of it may reach a reviewer of a blind program. */
type Identity = { name: string; email: string; institution: string; strings: string[] };

/** An applicant with distinctive details everywhere they can be: account, profile, form, file. */
let applicants = 0;
async function identifiedApplicant(tag: string): Promise<{ session: Session; id: Identity }> {
  // Every string is this applicant's own: another applicant's (seen by right) cannot match.
  const n = ++applicants;
  const name = `Zenobia ${tag} Quillfeather${tag}`;
  const dateOfBirth = `2006-03-1${n}`;
  const postcode = `TB${n} 9ZZ`;
  const phone = `+44770090012${n}`;
  const email = `zenobia.${tag.toLowerCase()}.${crypto.randomUUID().slice(0, 6)}@example.org`;
  await createUser(
    ctx.db,
    { email, fullName: name, password: PASSWORD, role: "applicant" },
    TEST_PASSWORD_COST,
    ctx.clock.now(),
  );
  const session = await logIn(ctx, email);
  await verifyEmail(ctx, session);
  await expectJson(
    await call(ctx, session, "PUT", "/api/v1/profile/", {
      legalName: `Zenobia Legal ${tag}`,
      preferredName: `Zenny${tag}`,
      dateOfBirth,
      nationality: "IS",
      address: {
        lines: [`17 Larkspur ${tag} Lane`],
        city: `Thornbury ${tag}`,
        region: null,
        postcode,
        country: "GB",
      },
      phone,
    }),
  );
  const institution = `Marlowe ${tag} Academy`;
  return {
    session,
    id: {
      name,
      email,
      institution,
      strings: [
        name,
        email,
        email.split("@")[0] as string,
        `Quillfeather${tag}`,
        institution,
        `Zenobia Legal ${tag}`,
        `Zenny${tag}`,
        dateOfBirth,
        `17 Larkspur ${tag} Lane`,
        `Thornbury ${tag}`,
        postcode,
        phone,
      ],
    },
  };
}

/** A program (blind or not) with a fee, a rubric, the reviewer in its pool, and an intake. */
async function program(blind: boolean) {
  const created = await createProgram(ctx, admin, {
    applicationFee: { amount: 2500, currency: "EUR" },
    requiredDocuments: ["transcript"],
  });
  const intake = await createIntake(ctx, admin, created.id);
  const base = `/api/v1/staff/programs/${created.id}`;
  await expectJson(await call(ctx, admin, "PUT", `${base}/rubric/`, RUBRIC));
  await expectJson(
    await call(ctx, admin, "PUT", `${base}/reviewers/`, { reviewerIds: [reviewer.user.id] }),
  );
  await expectJson(
    await call(ctx, admin, "PUT", `${base}/review-settings/`, {
      blindReview: blind,
      disagreementThreshold: null,
    }),
  );
  return { program: created, intake };
}

/**
 * A submitted application with its fee paid (receipt), a document named after the applicant,
 * assigned to the reviewer (so under review and in their queue).
 */
async function application(intakeId: string, tag: string, assign = true) {
  const { session, id } = await identifiedApplicant(tag);
  const draft = await createDraft(ctx, session, intakeId, { priorInstitution: id.institution });
  const doc = await uploaded(ctx, session, draft.id, "transcript", {
    bytes: pdf(),
    filename: `Quillfeather${tag} transcript.pdf`,
    contentType: "application/pdf",
  });
  const payment = await newPayment(ctx, session, draft.id);
  await expectJson(await call(ctx, admin, "POST", `/api/v1/payments/${payment.id}/confirm/`, {}));
  await expectJson(
    await call(ctx, session, "POST", `/api/v1/applications/${draft.id}/submit/`, {}),
  );
  if (assign) {
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/applications/${draft.id}/assignments/`, {
        reviewerId: reviewer.user.id,
      }),
      201,
    );
  }
  return { session, application: draft, doc, payment, id };
}

const blind = await program(true);
const open = await program(false);
const seen = await application(blind.intake.id, "Alpha");
// A second blind application, waitlisted, for the intake's waitlist view.
const waiting = await application(blind.intake.id, "Beta");
await expectJson(await decide(ctx, admin, waiting.application.id, { decision: "waitlist" }));
const control = await application(open.intake.id, "Gamma");

/** Every route a reviewer can read about an application, with the ids of one. */
function readsAbout(a: typeof seen, intakeId: string, programId: string) {
  const app = `/api/v1/applications/${a.application.id}`;
  return [
    `${app}/`,
    `${app}/history/`,
    `${app}/documents/`,
    `${app}/documents/${a.doc.id}/`,
    `${app}/documents/checklist/`,
    `${app}/fee/`,
    `${app}/payments/`,
    `${app}/conditions/`,
    `${app}/deferrals/`,
    `${app}/reviews/`,
    `/api/v1/payments/${a.payment.id}/`,
    `/api/v1/payments/${a.payment.id}/receipt/`,
    `/api/v1/applications/?programId=${programId}`,
    `/api/v1/applications/?intakeId=${intakeId}&status=under_review,waitlisted`,
    `/api/v1/applications/?reviewerId=me`,
    `/api/v1/staff/queue/`,
    `/api/v1/staff/intakes/${intakeId}/waitlist/`,
    `/api/v1/staff/intakes/${intakeId}/seats/`,
    `/api/v1/staff/programs/${programId}/reviewers/`,
    `/api/v1/staff/programs/${programId}/rubric/`,
    `/api/v1/staff/stats/`,
    `/api/v1/catalog/programs/${programId}/`,
  ];
}

const leaksIn = (body: string, identities: Identity[]) =>
  identities
    .flatMap((id) => id.strings)
    .filter((s) => body.toLowerCase().includes(s.toLowerCase()));

describe("blind review: nothing identifying reaches a reviewer", () => {
  const blindIds = [seen.id, waiting.id];
  for (const path of readsAbout(seen, blind.intake.id, blind.program.id)) {
    test(`GET ${path}`, async () => {
      const res = await call(ctx, reviewer, "GET", path);
      expect(res.status).toBe(200);
      expect(leaksIn(await res.text(), blindIds)).toEqual([]);
    });
  }

  test("the waitlisted application's own routes too", async () => {
    for (const path of readsAbout(waiting, blind.intake.id, blind.program.id)) {
      const res = await call(ctx, reviewer, "GET", path);
      expect(res.status).toBe(200);
      expect(leaksIn(await res.text(), blindIds)).toEqual([]);
    }
  });

  test("the download's Content-Disposition carries a neutral file name", async () => {
    const path = `/api/v1/applications/${seen.application.id}/documents/${seen.doc.id}/file/`;
    const res = await call(ctx, reviewer, "GET", path);
    expect(res.status).toBe(200);
    const disposition = res.headers.get("content-disposition") ?? "";
    expect(disposition).toContain("transcript-");
    expect(disposition.toLowerCase()).not.toContain("quillfeather");
    const asAdmin = await call(ctx, admin, "GET", path);
    expect(asAdmin.headers.get("content-disposition")).toContain("QuillfeatherAlpha");
  });

  test("the application reads as redacted, with everything else intact", async () => {
    const path = `/api/v1/applications/${seen.application.id}/`;
    const body = await expectJson<ApplicationJson>(await call(ctx, reviewer, "GET", path));
    expect(body.applicant).toEqual({
      id: seen.application.applicant.id,
      email: "",
      fullName: "Applicant (blind review)",
    });
    expect(body.priorInstitution).toBe("");
    expect(body.applicantProfile).toBeNull();
    expect(body.status).toBe("under_review");
    expect(body.program.id).toBe(blind.program.id);
  });

  test("responses to a reviewer's own writes are redacted too", async () => {
    const app = `/api/v1/applications/${seen.application.id}`;
    const writes: [string, string, unknown][] = [
      ["PUT", `${app}/reviews/mine/`, { scores: { academic_record: 4 }, recommendation: "offer" }],
      ["POST", `${app}/documents/${seen.doc.id}/review/`, { decision: "verified" }],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(ctx, reviewer, method, path, body);
      expect(res.status).toBe(200);
      expect(leaksIn(await res.text(), [seen.id])).toEqual([]);
    }
    // A move a reviewer makes answers with the application: redacted as well.
    const fresh = await application(blind.intake.id, "Delta", false);
    const moved = await call(
      ctx,
      reviewer,
      "POST",
      `/api/v1/applications/${fresh.application.id}/transitions/`,
      { to: "under_review" },
    );
    expect(moved.status).toBe(200);
    expect(leaksIn(await moved.text(), [fresh.id])).toEqual([]);
  });

  test("a reviewer's search does not find blind applicants by name or email", async () => {
    for (const term of ["Quillfeather", seen.id.email, "Zenobia Alpha"]) {
      const res = await call(
        ctx,
        reviewer,
        "GET",
        `/api/v1/applications/?search=${encodeURIComponent(term)}&programId=${blind.program.id}`,
      );
      const page = await expectJson<Paged<ApplicationJson>>(res);
      expect(page.results).toEqual([]);
      expect(page.count).toBe(0);
    }
    // The program's code still finds them, redacted.
    const byCode = await expectJson<Paged<ApplicationJson>>(
      await call(
        ctx,
        reviewer,
        "GET",
        `/api/v1/applications/?search=${encodeURIComponent(blind.program.code)}`,
      ),
    );
    expect(byCode.results.length).toBeGreaterThan(0);
    expect(byCode.results.every((a) => a.applicant.fullName === "Applicant (blind review)")).toBe(
      true,
    );
  });
});

describe("blind review applies to reviewers of that program only", () => {
  test("admins see the blind program's applicants in full", async () => {
    const res = await call(ctx, admin, "GET", `/api/v1/applications/${seen.application.id}/`);
    const body = await expectJson<ApplicationJson>(res);
    expect(body.applicant.fullName).toBe(seen.id.name);
    expect(body.priorInstitution).toBe(seen.id.institution);
    expect(body.applicantProfile?.legalName).toBe("Zenobia Legal Alpha");
    const search = await expectJson<Paged<ApplicationJson>>(
      await call(ctx, admin, "GET", "/api/v1/applications/?search=Quillfeather"),
    );
    expect(search.results.length).toBeGreaterThanOrEqual(3);
  });

  test("the applicant sees their own application in full", async () => {
    const path = `/api/v1/applications/${seen.application.id}/`;
    const body = await expectJson<ApplicationJson>(await call(ctx, seen.session, "GET", path));
    expect(body.applicant.fullName).toBe(seen.id.name);
    expect(body.priorInstitution).toBe(seen.id.institution);
  });

  test("a reviewer of a program without blind review sees the applicant", async () => {
    const res = await call(ctx, reviewer, "GET", "/api/v1/staff/queue/");
    const text = await res.text();
    expect(text).toContain(control.id.name);
    expect(leaksIn(text, [seen.id, waiting.id])).toEqual([]);
  });

  test("turning blind review off shows the names again (nothing was overwritten)", async () => {
    const base = `/api/v1/staff/programs/${blind.program.id}/review-settings/`;
    await expectJson(
      await call(ctx, admin, "PUT", base, { blindReview: false, disagreementThreshold: null }),
    );
    const res = await call(ctx, reviewer, "GET", `/api/v1/applications/${seen.application.id}/`);
    expect((await expectJson<ApplicationJson>(res)).applicant.fullName).toBe(seen.id.name);
    await expectJson(
      await call(ctx, admin, "PUT", base, { blindReview: true, disagreementThreshold: null }),
    );
  });
});

describe("review settings", () => {
  const path = () => `/api/v1/staff/programs/${blind.program.id}/review-settings/`;

  test("admins read and set them; the change is audited", async () => {
    const body = await expectJson<Record<string, unknown>>(
      await call(ctx, admin, "PUT", path(), { blindReview: true, disagreementThreshold: 1.25 }),
    );
    expect(body).toEqual({
      programId: blind.program.id,
      blindReview: true,
      disagreementThreshold: 1.25,
      effectiveThreshold: 1.25,
    });
    expect(await expectJson(await call(ctx, admin, "GET", path()))).toEqual(body);
    const audit = await expectJson<Paged<{ action: string; details: Record<string, unknown> }>>(
      await call(ctx, admin, "GET", "/api/v1/staff/audit/?action=program.review_settings_set"),
    );
    expect(audit.results[0]?.details).toMatchObject({
      after: { blindReview: true, disagreementThreshold: 1.25 },
    });
    await call(ctx, admin, "PUT", path(), { blindReview: true, disagreementThreshold: null });
  });

  test("reviewers and applicants cannot read or change them", async () => {
    const applicant = await signIn(ctx);
    for (const who of [reviewer, applicant]) {
      expect((await problemOf(await call(ctx, who, "GET", path()))).code).toBe("FORBIDDEN");
      const res = await call(ctx, who, "PUT", path(), {
        blindReview: false,
        disagreementThreshold: null,
      });
      expect((await problemOf(res)).code).toBe("FORBIDDEN");
    }
  });

  test("bad input is 422, an unknown program 404", async () => {
    for (const body of [
      { blindReview: "yes", disagreementThreshold: null },
      { blindReview: true, disagreementThreshold: 0 },
      { blindReview: true, disagreementThreshold: -1 },
      { blindReview: true, disagreementThreshold: 101 },
      { blindReview: true },
    ]) {
      expect((await call(ctx, admin, "PUT", path(), body)).status).toBe(422);
    }
    const unknown = `/api/v1/staff/programs/${crypto.randomUUID()}/review-settings/`;
    expect((await problemOf(await call(ctx, admin, "GET", unknown))).code).toBe("NOT_FOUND");
    const res = await call(ctx, admin, "PUT", unknown, {
      blindReview: true,
      disagreementThreshold: null,
    });
    expect((await problemOf(res)).code).toBe("NOT_FOUND");
  });
});
