import { createUser } from "../src/modules/users/service.ts";
import { pdf, uploaded } from "./files.ts";
import { newPayment } from "./payments-support.ts";
import {
  createDraft,
  createIntake,
  createProgram,
  logIn,
  PASSWORD,
  type Session,
  TEST_PASSWORD_COST,
  type TestContext,
  verifyEmail,
} from "./support.ts";
import { call, expectJson } from "./workflow-support.ts";

/** The blind reviews' one criterion on a 1–5 scale. */
export const RUBRIC = {
  scale: { min: 1, max: 5 },
  criteria: [{ key: "academic_record", label: "Academic record", weight: 1 }],
};

/** What identifies an applicant: none of it may reach a reviewer of a blind program. */
export type Identity = {
  name: string;
  email: string;
  institution: string;
  /** The address the applicant's own moves came from (three-digit last part: none is a prefix). */
  clientIp: string;
  strings: string[];
};

/**
 * An applicant with distinctive details everywhere they can be: account, profile, the form
 * (prior institution). Every string is this applicant's own, so another applicant's (seen by
 * right) cannot match; `tag` keeps them apart from each other.
 */
let applicants = 0;
/**
 * Nationalities no other value here is spelled as (not "TO": the history's `"to"`), one per
 * applicant, so the JSON value `"TV"` can only be the applicant's.
 */
const NATIONALITIES = ["TV", "NR", "PW", "KI", "SB", "VU", "WS", "FM", "MH", "NU"];
export async function identifiedApplicant(
  ctx: TestContext,
  tag: string,
): Promise<{ session: Session; id: Identity }> {
  const n = ++applicants;
  const name = `Zenobia ${tag} Quillfeather${tag}`;
  const dateOfBirth = `2006-03-1${n % 10}`;
  const postcode = `TB${n} 9ZZ`;
  const phone = `+4477009001${String(n).padStart(2, "0")}`;
  const nationality = NATIONALITIES[n % NATIONALITIES.length] as string;
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
      nationality,
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
  const clientIp = `198.51.100.${100 + n}`;
  return {
    session,
    id: {
      name,
      email,
      institution,
      clientIp,
      strings: [
        clientIp,
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
        // The nationality as a JSON value: a two-letter code cannot be searched for bare.
        `"${nationality}"`,
      ],
    },
  };
}

/** A program (blind or not) with a fee, a rubric, the reviewer in its pool, and an intake. */
export async function reviewedProgram(
  ctx: TestContext,
  admin: Session,
  reviewer: Session,
  blind: boolean,
) {
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
 * A draft of an identified applicant with a document named after the applicant (uploaders
 * often do) and its fee paid (a receipt), or only a payment pending with `paid` false.
 */
export async function identifiedDraft(
  ctx: TestContext,
  admin: Session,
  intakeId: string,
  tag: string,
  paid = true,
) {
  const { session, id } = await identifiedApplicant(ctx, tag);
  const draft = await createDraft(ctx, session, intakeId, { priorInstitution: id.institution });
  const doc = await uploaded(ctx, session, draft.id, "transcript", {
    bytes: pdf(),
    filename: `Quillfeather${tag} transcript.pdf`,
    contentType: "application/pdf",
  });
  const payment = await newPayment(ctx, session, draft.id);
  if (paid) {
    await expectJson(await call(ctx, admin, "POST", `/api/v1/payments/${payment.id}/confirm/`, {}));
  }
  return { session, application: draft, doc, payment, id };
}

/**
 * Records the applicant's moves as made from their address, as a request over the network
 * records them: requests handled in-process have no peer, so the history holds none.
 */
export const fromTheirAddress = (ctx: TestContext, applicationId: string, clientIp: string) =>
  ctx.db.run(
    (sql) => sql`UPDATE application_transitions SET client_ip = ${clientIp}
      WHERE application_id = ${applicationId} AND actor_role = 'applicant'`,
  );

/** …submitted, and (unless `assign` is false) assigned to the reviewer: under review. */
export async function identifiedApplication(
  ctx: TestContext,
  admin: Session,
  reviewer: Session,
  intakeId: string,
  tag: string,
  assign = true,
) {
  const draft = await identifiedDraft(ctx, admin, intakeId, tag);
  const path = `/api/v1/applications/${draft.application.id}`;
  await expectJson(await call(ctx, draft.session, "POST", `${path}/submit/`, {}));
  await fromTheirAddress(ctx, draft.application.id, draft.id.clientIp);
  if (assign) {
    const body = { reviewerId: reviewer.user.id };
    await expectJson(await call(ctx, admin, "POST", `${path}/assignments/`, body), 201);
  }
  return draft;
}

/** The identifying strings of `identities` that `body` contains (any case). */
export const leaksIn = (body: string, identities: Identity[]) =>
  identities
    .flatMap((id) => id.strings)
    .filter((s) => body.toLowerCase().includes(s.toLowerCase()));
