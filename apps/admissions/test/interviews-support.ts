import type { Interview } from "../src/modules/interviews/model.ts";
import { type Session, setupApp, signIn, type TestContext } from "./support.ts";
import { applicationUnderReview, call, expectJson, intakeWithSeats } from "./workflow-support.ts";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const PATH = "/api/v1/interviews/";

/** An app with an admin, two reviewers and a program (rubric on a 1–5 scale) open now. */
export async function interviewsContext() {
  const ctx = await setupApp();
  const admin = await signIn(ctx, "admin");
  const reviewer = await signIn(ctx, "reviewer");
  const reviewer2 = await signIn(ctx, "reviewer");
  const { program, intake } = await intakeWithSeats(ctx, admin);
  await expectJson(
    await call(ctx, admin, "PUT", `/api/v1/staff/programs/${program.id}/rubric/`, {
      scale: { min: 1, max: 5 },
      criteria: [{ key: "academic_record", label: "Academic record", weight: 1 }],
    }),
  );
  return { ctx, admin, reviewer, reviewer2, program, intake };
}

/** A slot `inHours` from the test clock's now, `minutes` long, online unless `where` says. */
export function slotBody(
  ctx: TestContext,
  panel: Session[],
  inHours = 48,
  minutes = 30,
  where: Record<string, unknown> = { meetingUrl: "https://meet.example.org/room-1" },
) {
  return {
    startsAt: new Date(ctx.clock.now() + inHours * HOUR).toISOString(),
    durationMinutes: minutes,
    panel: panel.map((s) => s.user.id),
    ...where,
  };
}

export const createSlot = async (ctx: TestContext, admin: Session, body: unknown) =>
  expectJson<Interview>(await call(ctx, admin, "POST", PATH, body), 201);

/** A slot and an application under review invited to it. */
export async function invited(
  ctx: TestContext,
  admin: Session,
  panel: Session[],
  intakeId: string,
  inHours = 48,
) {
  const slot = await createSlot(ctx, admin, slotBody(ctx, panel, inHours));
  const { applicant, application } = await applicationUnderReview(ctx, panel[0] ?? admin, intakeId);
  const interview = await expectJson<Interview>(
    await call(ctx, admin, "POST", `${PATH}${slot.id}/invite/`, { applicationId: application.id }),
  );
  return { slot, applicant, application, interview };
}

/** The newest outbox email of `event` about the application, with its attachment. */
export async function outboxEmail(ctx: TestContext, applicationId: string, event: string) {
  const rows = (await ctx.db.run(
    (sql) => sql`SELECT * FROM email_outbox WHERE application_id = ${applicationId}
      AND event = ${event} ORDER BY created_at DESC, id DESC`,
  )) as {
    to_address: string;
    subject: string;
    body: string;
    attachment_name: string | null;
    attachment_type: string | null;
    attachment_content: string | null;
  }[];
  return { count: rows.length, latest: rows[0] };
}
