import { createLogger } from "@platform/server";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_DELIVERY_POLICY, DEFAULT_REMINDERS, DEFAULT_SETTINGS } from "../src/config.ts";
import { documentChecklist } from "../src/modules/documents/service.ts";
import type { Mailer } from "../src/modules/outbox/service.ts";
import { feeLedger } from "../src/modules/payments/service.ts";
import { type JobsDeps, workflowMoveDeps } from "../src/wiring.ts";
import {
  type ApplicationJson,
  as,
  createDraft,
  createIntake,
  createProgram,
  type Session,
  signIn,
  type TestContext,
} from "./support.ts";

export const DAY = 86_400_000;

export const call = async (
  ctx: TestContext,
  who: Session,
  method: string,
  path: string,
  body?: unknown,
) => ctx.app.handle(as(who, method, path, body));

/** A problem+json body with its extension members (e.g. `refusals`, `seats`). */
export const problemWith = async (res: Response) =>
  (await problemOf(res)) as Awaited<ReturnType<typeof problemOf>> & Record<string, unknown>;

/** The JSON of a response that must have the given status. */
export async function expectJson<T = Record<string, unknown>>(
  res: Response,
  status = 200,
): Promise<T> {
  if (res.status !== status) {
    throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  }
  return (await res.json()) as T;
}

/** A program (no documents, no fee) with one intake of `capacity` seats, open now. */
export async function intakeWithSeats(ctx: TestContext, admin: Session, capacity = 50) {
  const program = await createProgram(ctx, admin);
  const intake = await createIntake(ctx, admin, program.id, { capacity });
  return { program, intake };
}

/** A new applicant's submitted application to the intake. */
export async function submittedApplication(ctx: TestContext, intakeId: string) {
  const applicant = await signIn(ctx);
  const draft = await createDraft(ctx, applicant, intakeId);
  const res = await call(ctx, applicant, "POST", `/api/v1/applications/${draft.id}/submit/`);
  return { applicant, application: await expectJson<ApplicationJson>(res) };
}

/** …moved on to under_review by a reviewer. */
export async function applicationUnderReview(
  ctx: TestContext,
  reviewer: Session,
  intakeId: string,
) {
  const { applicant, application } = await submittedApplication(ctx, intakeId);
  const res = await call(
    ctx,
    reviewer,
    "POST",
    `/api/v1/applications/${application.id}/transitions/`,
    {
      to: "under_review",
    },
  );
  return { applicant, application: await expectJson<ApplicationJson>(res) };
}

export const decide = (
  ctx: TestContext,
  admin: Session,
  id: string,
  body: Record<string, unknown>,
) => call(ctx, admin, "POST", `/api/v1/applications/${id}/decision/`, body);

/** A mailer that keeps what it is given (or fails while `failing` is set). */
export function recordingMailer() {
  const sent: {
    to: string;
    subject: string;
    body: string;
    event: string;
    applicationId: string | null;
  }[] = [];
  const control = { failing: false };
  const mailer: Mailer = {
    name: "test",
    async send(email) {
      if (control.failing) throw new Error("connection refused");
      sent.push(email);
    },
    close: () => {},
  };
  return { mailer, sent, control };
}

/** The background jobs over the test app's database and clock, run by hand. */
export function testJobs(
  ctx: TestContext,
  mailer: Mailer,
  policy = DEFAULT_DELIVERY_POLICY,
): JobsDeps {
  return {
    db: ctx.db,
    logger: createLogger({ service: "admissions", level: "silent" }),
    now: ctx.clock.now,
    move: workflowMoveDeps(
      ctx.db,
      { documents: documentChecklist, fees: feeLedger },
      DEFAULT_SETTINGS.workflow,
      DEFAULT_SETTINGS.mailFrom,
    ),
    mailer,
    delivery: policy,
    reminders: DEFAULT_REMINDERS,
    references: {
      reminderIntervalMs: DEFAULT_SETTINGS.references.reminderIntervalMs,
      portalUrl: DEFAULT_SETTINGS.portalUrl,
    },
  };
}
