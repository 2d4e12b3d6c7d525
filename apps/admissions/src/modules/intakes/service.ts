import type { Db } from "../../db/client.ts";
import type { Page, PageOf } from "../../lib/pagination.ts";
import { toPage } from "../../lib/pagination.ts";
import { problem } from "../../problems.ts";
import type { User } from "../users/model.ts";
import type { Application, MoveDeps, Origin } from "../workflow/model.ts";
import {
  type ApplicationRow,
  blinderFor,
  lockIntake,
  moveApplication,
  seatsOf,
  selectApplications,
  toApplication,
} from "../workflow/service.ts";
import { firstWaitlisted } from "./queries.ts";

export type IntakesDeps = { db: Db; now: () => number; move: MoveDeps };

/**
 * Offers the first waitlisted application of the intake a seat, if one is free (409
 * NO_SEATS_AVAILABLE otherwise, WAITLIST_EMPTY when nobody waits). The intake is locked before
 * the first in line is read, so two promotions at once offer two different applicants.
 */
export function promoteFromWaitlist(
  deps: IntakesDeps,
  origin: Origin,
  intakeId: string,
  body: { respondBy?: string | undefined; reason?: string | undefined },
): Promise<Application> {
  const nowMs = deps.now();
  return deps.db.transaction(async (tx) => {
    await seatsOf(tx, intakeId); // 404 for an unknown intake
    await lockIntake(tx, deps.db.dialect, intakeId);
    const first = await firstWaitlisted(tx, intakeId);
    if (!first) throw problem("WAITLIST_EMPTY", { detail: "Nobody is on this intake's waitlist" });
    return moveApplication(
      tx,
      deps.move,
      origin,
      first,
      {
        to: "offered",
        reason: body.reason ?? "Promoted from the waitlist",
        preconditions: [],
        decision: { respondBy: body.respondBy },
        via: "promotion",
      },
      nowMs,
    );
  });
}

export const getSeats = (deps: IntakesDeps, intakeId: string) =>
  deps.db.run((sql) => seatsOf(sql, intakeId));

/** The intake's waitlist in promotion order (blinded for reviewers where the program says). */
export function listWaitlist(
  deps: IntakesDeps,
  viewer: User,
  intakeId: string,
  page: Page,
  requestUrl: string,
): Promise<PageOf<Application>> {
  return deps.db.run(async (sql) => {
    const seats = await seatsOf(sql, intakeId);
    const rows = (await sql`${selectApplications(sql)}
      WHERE a.intake_id = ${intakeId} AND a.status = 'waitlisted'
      ORDER BY a.waitlist_position ASC, a.id ASC
      LIMIT ${page.limit} OFFSET ${page.offset}`) as ApplicationRow[];
    const blind = await blinderFor(sql, viewer);
    return toPage(
      requestUrl,
      page,
      seats.waitlisted,
      rows.map((row) => blind(toApplication(row))),
    );
  });
}

export { getDecisionsDue, setDecisionsDue } from "./internal/decisions-due.ts";
