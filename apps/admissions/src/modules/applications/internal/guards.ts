import type { SQL } from "bun";
import { problem } from "../../../problems.ts";
import type { DocumentType, Intake, Program } from "../../catalog/model.ts";
import { isOpenAt } from "../../catalog/service.ts";
import { isEmailVerified } from "../../users/service.ts";

/**
 * What submission needs to know from the documents and payments features (their
 * `documentChecklist` and `feeLedger`). Both run inside the submitting transaction (they get
 * its `sql`), so what they see cannot change before the status does.
 */
export type DocumentChecklist = {
  /** The required types with no document on file for this application. */
  missingDocuments(
    sql: SQL,
    applicationId: string,
    required: readonly DocumentType[],
  ): Promise<DocumentType[]>;
};

export type FeeStatus = "paid" | "waived" | "not_required" | "unpaid";
export type FeeLedger = {
  feeStatus(sql: SQL, applicationId: string, fee: Program["applicationFee"]): Promise<FeeStatus>;
};

export type SubmissionChecks = { documents: DocumentChecklist; fees: FeeLedger };

/** The intake must be accepting applications: 409 INTAKE_NOT_OPEN or DEADLINE_PASSED. */
export function assertIntakeOpen(program: Program, intake: Intake, nowMs: number): void {
  if (!program.active) {
    throw problem("PROGRAM_INACTIVE", {
      detail: `${program.name} is not accepting applications`,
    });
  }
  if (isOpenAt(intake, nowMs)) return;
  if (nowMs < Date.parse(intake.opensAt)) {
    throw problem("INTAKE_NOT_OPEN", {
      detail: `Applications for ${intake.term} open at ${intake.opensAt}`,
      extensions: { opensAt: intake.opensAt },
    });
  }
  throw problem("APPLICATION_DEADLINE_PASSED", {
    detail: `The deadline for ${intake.term} was ${intake.deadline}`,
    extensions: { deadline: intake.deadline },
  });
}

/**
 * Every submission guard, in the order an applicant can fix them: the intake is open, the
 * applicant's email is verified, the required documents are on file, the fee is paid or waived.
 */
export async function assertSubmittable(
  sql: SQL,
  checks: SubmissionChecks,
  target: {
    applicationId: string;
    applicantId: string;
    program: Program;
    intake: Intake;
    nowMs: number;
  },
): Promise<void> {
  const { applicationId, program, intake, nowMs } = target;
  assertIntakeOpen(program, intake, nowMs);
  // Every later email about the application goes to this address: it must be the applicant's.
  if (!(await isEmailVerified(sql, target.applicantId))) {
    throw problem("EMAIL_NOT_VERIFIED", {
      detail:
        "Verify your email address before submitting: open the link we emailed you, or ask for a new one (POST /api/v1/account/email-verification/)",
    });
  }
  const missing = await checks.documents.missingDocuments(
    sql,
    applicationId,
    program.requiredDocuments,
  );
  if (missing.length > 0) {
    throw problem("REQUIRED_DOCUMENTS_MISSING", {
      detail: `Upload these documents before submitting: ${missing.join(", ")}`,
      extensions: { missing },
    });
  }
  const fee = await checks.fees.feeStatus(sql, applicationId, program.applicationFee);
  if (fee === "unpaid") {
    throw problem("APPLICATION_FEE_UNPAID", {
      detail: `The application fee (${formatMoney(program.applicationFee)}) must be paid or waived before submitting`,
      extensions: { fee: program.applicationFee },
    });
  }
}

/** Minor units in the currency's own decimals: 7500 EUR → €75.00, 7500 JPY → ¥7,500. */
function formatMoney({ amount, currency }: Program["applicationFee"]): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
