import { problem } from "../../problems.ts";
import type { Role } from "../users/model.ts";
import type { ApplicationStatus } from "./model.ts";

/**
 * Who may make a move: the applicant who owns the application, any staff member (reviewer or
 * admin), or an admin only.
 */
export type Mover = "owner" | "staff" | "admin";

const OWNER_OR_ADMIN: readonly Mover[] = ["owner", "admin"];
const STAFF: readonly Mover[] = ["staff"];
const OWNER: readonly Mover[] = ["owner"];

/**
 * The application lifecycle, the one place that says which status may follow which and who
 * may move it there. A status with no entry is final. Withdrawal is open from every status
 * that is not final.
 */
export const TRANSITIONS: Readonly<
  Record<ApplicationStatus, Partial<Record<ApplicationStatus, readonly Mover[]>>>
> = {
  draft: { submitted: OWNER, withdrawn: OWNER_OR_ADMIN },
  submitted: { under_review: STAFF, withdrawn: OWNER_OR_ADMIN },
  under_review: {
    offered: STAFF,
    conditionally_offered: STAFF,
    waitlisted: STAFF,
    rejected: STAFF,
    withdrawn: OWNER_OR_ADMIN,
  },
  waitlisted: { offered: STAFF, rejected: STAFF, withdrawn: OWNER_OR_ADMIN },
  offered: {
    accepted: OWNER,
    declined: OWNER,
    offer_expired: STAFF,
    withdrawn: OWNER_OR_ADMIN,
  },
  conditionally_offered: {
    enrolled: STAFF,
    conditions_not_met: STAFF,
    withdrawn: OWNER_OR_ADMIN,
  },
  accepted: { enrolled: STAFF, conditions_not_met: STAFF, withdrawn: OWNER_OR_ADMIN },
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
export function moversFor(actor: { id: string; role: Role }, ownerId: string): Set<Mover> {
  const movers = new Set<Mover>();
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
