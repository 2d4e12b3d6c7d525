import type { Payment } from "../src/modules/payments/model.ts";
import {
  type ApplicationJson,
  createDraft,
  createIntake,
  createProgram,
  type Session,
  signIn,
  type TestContext,
} from "./support.ts";

export type PaymentJson = Payment;

/** A draft for a program charging `fee` (minor units) in `currency`, no documents. */
export async function draftWithFee(
  ctx: TestContext,
  staff: Session,
  fee = 7500,
  currency = "EUR",
): Promise<{ applicant: Session; draft: ApplicationJson }> {
  const program = await createProgram(ctx, staff, { applicationFee: { amount: fee, currency } });
  const intake = await createIntake(ctx, staff, program.id);
  const applicant = await signIn(ctx);
  return { applicant, draft: await createDraft(ctx, applicant, intake.id) };
}

export const paymentsPath = (applicationId: string) =>
  `/api/v1/applications/${applicationId}/payments/`;

/** POST a payment with an Idempotency-Key (a fresh one unless given; null sends none). */
export function pay(
  ctx: TestContext,
  applicant: Session,
  applicationId: string,
  body: Record<string, unknown> = {},
  key: string | null = crypto.randomUUID(),
): Promise<Response> {
  const headers = new Headers({
    authorization: `Bearer ${applicant.accessToken}`,
    "content-type": "application/json",
  });
  if (key !== null) headers.set("idempotency-key", key);
  return ctx.app.handle(
    new Request(`http://localhost${paymentsPath(applicationId)}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
}

export async function newPayment(
  ctx: TestContext,
  applicant: Session,
  applicationId: string,
  body: Record<string, unknown> = {},
): Promise<PaymentJson> {
  const res = await pay(ctx, applicant, applicationId, body);
  if (res.status !== 201) throw new Error(`payment: ${res.status} ${await res.text()}`);
  return (await res.json()) as PaymentJson;
}
