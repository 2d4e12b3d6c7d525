import { problem } from "../../../problems.ts";
import type { Role } from "../../users/model.ts";
import type { ApplicationStatus } from "../model.ts";

/**
 * Who may make a move: the applicant who owns the application, any staff member (reviewer or
 * admin), an admin only, or the system itself (the offer expiry job).
 */
export type Mover = "owner" | "staff" | "admin" | "system";

const OWNER_OR_ADMIN: readonly Mover[] = ["owner", "admin"];
const STAFF: readonly Mover[] = ["staff"];
const ADMIN: readonly Mover[] = ["admin"];
const OWNER: readonly Mover[] = ["owner"];
const SYSTEM_OR_ADMIN: readonly Mover[] = ["system", "admin"];

/**
 * The application lifecycle, the one place that says which status may follow which and who
 * may move it there. A status with no entry is final. Withdrawal is open from every status
 * that is not final. Decisions (offers, waitlist, rejection, enrolment) are admins' (issue 7);
 * reviewers start the review and recommend. A conditional offer is answered like an offer:
 * accepted (its conditions still to be met: accepted → enrolled | conditions_not_met),
 * declined or left to expire; staff may also settle its conditions before an answer. Once every
 * condition is met or waived (modules/offers) the offer is unconditional without a move
 * (`offer.conditions` empties; the status stays); a condition still pending at its due date
 * moves the application to conditions_not_met (the system, from the background pass).
 * Interviews (modules/interviews): staff move an application under review to interviewing
 * (inviting it to an interview does so), and back to under_review to finish the review; admins
 * may decide straight from interviewing.
 */
export const TRANSITIONS: Readonly<
  Record<ApplicationStatus, Partial<Record<ApplicationStatus, readonly Mover[]>>>
> = {
  draft: { submitted: OWNER, withdrawn: OWNER_OR_ADMIN },
  submitted: { under_review: STAFF, withdrawn: OWNER_OR_ADMIN },
  under_review: {
    interviewing: STAFF,
    offered: ADMIN,
    conditionally_offered: ADMIN,
    waitlisted: ADMIN,
    rejected: ADMIN,
    withdrawn: OWNER_OR_ADMIN,
  },
  interviewing: {
    under_review: STAFF,
    offered: ADMIN,
    conditionally_offered: ADMIN,
    waitlisted: ADMIN,
    rejected: ADMIN,
    withdrawn: OWNER_OR_ADMIN,
  },
  waitlisted: { offered: ADMIN, rejected: ADMIN, withdrawn: OWNER_OR_ADMIN },
  offered: {
    accepted: OWNER,
    declined: OWNER,
    offer_expired: SYSTEM_OR_ADMIN,
    withdrawn: OWNER_OR_ADMIN,
  },
  conditionally_offered: {
    accepted: OWNER,
    declined: OWNER,
    offer_expired: SYSTEM_OR_ADMIN,
    enrolled: ADMIN,
    conditions_not_met: SYSTEM_OR_ADMIN,
    withdrawn: OWNER_OR_ADMIN,
  },
  accepted: { enrolled: ADMIN, conditions_not_met: SYSTEM_OR_ADMIN, withdrawn: OWNER_OR_ADMIN },
  rejected: {},
  declined: {},
  offer_expired: {},
  enrolled: {},
  conditions_not_met: {},
  withdrawn: {},
};

export const isFinal = (status: ApplicationStatus): boolean =>
  Object.keys(TRANSITIONS[status]).length === 0;

export const nextStatuses = (status: ApplicationStatus): ApplicationStatus[] =>
  Object.keys(TRANSITIONS[status]) as ApplicationStatus[];

/** The capacities in which `actor` acts on an application owned by `ownerId`. */
export function moversFor(
  actor: { id: string | null; role: Role | "system" },
  ownerId: string,
): Set<Mover> {
  const movers = new Set<Mover>();
  if (actor.role === "system") movers.add("system");
  if (actor.role === "applicant" && actor.id === ownerId) movers.add("owner");
  if (actor.role === "reviewer" || actor.role === "admin") movers.add("staff");
  if (actor.role === "admin") movers.add("admin");
  return movers;
}

/**
 * 409 ILLEGAL_TRANSITION when the table has no such move (whoever asks); 403
 * TRANSITION_FORBIDDEN when the move exists but not for this actor.
 */
export function assertTransition(
  from: ApplicationStatus,
  to: ApplicationStatus,
  movers: Set<Mover>,
): void {
  const allowed = TRANSITIONS[from][to];
  if (!allowed) {
    const next = nextStatuses(from);
    throw problem("ILLEGAL_TRANSITION", {
      detail: `An application cannot move from ${from} to ${to}${next.length ? ` (allowed: ${next.join(", ")})` : ` (${from} is final)`}`,
      extensions: { from, to, allowed: next },
    });
  }
  if (!allowed.some((mover) => movers.has(mover))) {
    throw problem("TRANSITION_FORBIDDEN", {
      detail: `Only ${allowed.join(" or ")} may move an application from ${from} to ${to}`,
      extensions: { from, to },
    });
  }
}
