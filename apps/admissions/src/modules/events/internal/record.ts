import type { SQL } from "bun";
import { newId } from "../../../lib/ids.ts";
import type { TransitionEffects } from "../../workflow/model.ts";
import type { EventType } from "../model.ts";

export type NewEvent = {
  type: EventType;
  applicationId: string | null;
  subject: { type: string; id: string };
  /** Ids and statuses only: no personal data (see EVENT_TYPES). */
  data?: Record<string, unknown>;
};

/**
 * Appends an event in the caller's transaction (a transactional outbox): it exists, and is
 * published to the feed and the webhooks, only if the change it describes commits. Its
 * position comes later, from the publisher (internal/publish.ts), so writing it takes no lock
 * that other transactions would wait for.
 */
export async function recordEvent(tx: SQL, event: NewEvent, at: string): Promise<string> {
  const id = newId();
  await tx`INSERT INTO events ${tx({
    id,
    position: null,
    type: event.type,
    application_id: event.applicationId,
    subject_type: event.subject.type,
    subject_id: event.subject.id,
    data: JSON.stringify(event.data ?? {}),
    created_at: at,
  })}`;
  return id;
}

/** Every move of an application is an `application.status_changed` event, in its transaction. */
export const eventEffects: TransitionEffects = {
  prepare: async () => ({}),
  async settle(move, after) {
    await recordEvent(
      move.tx,
      {
        type: "application.status_changed",
        applicationId: after.id,
        subject: { type: "application", id: after.id },
        data: {
          from: move.before.status,
          to: after.status,
          via: move.via,
          version: after.version,
          programId: after.program.id,
          intakeId: after.intake.id,
        },
      },
      move.at,
    );
  },
};
