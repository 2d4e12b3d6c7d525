import { unzipSync } from "fflate";
import type { DataRequest } from "../src/modules/data-rights/model.ts";
import type { PersonalDetails } from "../src/modules/users/model.ts";
import { pdf, uploaded } from "./files.ts";
import { newPayment } from "./payments-support.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  type Session,
  signIn,
  type TestContext,
} from "./support.ts";

export const profileOf = (name: string): PersonalDetails => ({
  legalName: name,
  preferredName: null,
  dateOfBirth: "2005-04-01",
  nationality: "FR",
  address: {
    lines: ["1 Rue de Rivoli"],
    city: "Paris",
    region: null,
    postcode: "75001",
    country: "FR",
  },
  phone: "+33142685300",
});

/** An intake of a program that charges a fee and asks for a transcript. */
export async function feeIntake(ctx: TestContext, admin: Session) {
  const program = await createProgram(ctx, admin, {
    applicationFee: { amount: 5000, currency: "EUR" },
    requiredDocuments: ["transcript"],
  });
  return createIntake(ctx, admin, program.id);
}

/**
 * An applicant with something of everything: a profile, a draft with a personal statement,
 * an uploaded transcript (distinct bytes) and a pending payment.
 */
export async function applicantWithData(ctx: TestContext, intakeId: string, name: string) {
  const applicant = await signIn(ctx);
  await ctx.app.handle(as(applicant, "PUT", "/api/v1/profile/", profileOf(name)));
  const draft = await createDraft(ctx, applicant, intakeId, {
    personalStatement: `Statement of ${name}`,
  });
  // Bytes of this applicant's own: two of one size would share a SHA-256, and the export tests
  // look for another applicant's file by it.
  const bytes = pdf(900, crypto.randomUUID());
  const document = await uploaded(ctx, applicant, draft.id, "transcript", {
    bytes,
    filename: `${name} transcript.pdf`,
    contentType: "application/pdf",
  });
  const payment = await newPayment(ctx, applicant, draft.id);
  return { applicant, draft, document, bytes, payment };
}

/** POST /data-rights/export/ and the archive's entries by name. */
export async function exportOf(ctx: TestContext, session: Session) {
  const res = await ctx.app.handle(as(session, "POST", "/api/v1/data-rights/export/"));
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const data = JSON.parse(new TextDecoder().decode(entries["data.json"])) as Record<
    string,
    unknown
  >;
  return { res, entries, data };
}

export const requestErasure = (ctx: TestContext, session: Session, password: string) =>
  ctx.app.handle(as(session, "POST", "/api/v1/data-rights/erasure/", { password }));

export type RequestJson = DataRequest;
