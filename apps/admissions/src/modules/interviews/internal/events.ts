import type { SQL } from "bun";
import { recordEvent } from "../../events/service.ts";

export type InterviewEventType =
  | "interview.invited"
  | "interview.confirmed"
  | "interview.reschedule_requested"
  | "interview.rescheduled"
  | "interview.cancelled";

/**
 * The change feed's (and webhooks') record of an interview step, in the step's transaction.
 * Only an interview with an application is an event: an open slot concerns no applicant yet.
 * Statuses and times only, as every event (no notes, panel or scores).
 */
export async function interviewEvent(
  tx: SQL,
  type: InterviewEventType,
  interview: { id: string; applicationId: string | null },
  data: Record<string, unknown>,
  at: string,
): Promise<void> {
  if (!interview.applicationId) return;
  await recordEvent(
    tx,
    {
      type,
      applicationId: interview.applicationId,
      subject: { type: "interview", id: interview.id },
      data,
    },
    at,
  );
}
