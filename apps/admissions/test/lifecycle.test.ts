import { describe, expect, test } from "bun:test";
import { HttpProblem } from "@platform/server";
import {
  assertTransition,
  isFinal,
  type Mover,
  moversFor,
  nextStatuses,
} from "../src/modules/workflow/internal/lifecycle.ts";
import { type ApplicationStatus, STATUSES } from "../src/modules/workflow/model.ts";

/**
 * The lifecycle as issue 5 states it, written out independently of the table, plus issue 7's
 * answer to a conditional offer: accepted (conditions still to be met), declined or expired.
 */
const EXPECTED: Record<ApplicationStatus, ApplicationStatus[]> = {
  draft: ["submitted", "withdrawn"],
  submitted: ["under_review", "withdrawn"],
  under_review: [
    "interviewing",
    "offered",
    "conditionally_offered",
    "waitlisted",
    "rejected",
    "withdrawn",
  ],
  // Issue 19: interviews between the review and the decision.
  interviewing: [
    "under_review",
    "offered",
    "conditionally_offered",
    "waitlisted",
    "rejected",
    "withdrawn",
  ],
  waitlisted: ["offered", "rejected", "withdrawn"],
  offered: ["accepted", "declined", "offer_expired", "withdrawn"],
  accepted: ["enrolled", "conditions_not_met", "withdrawn"],
  conditionally_offered: [
    "accepted",
    "declined",
    "offer_expired",
    "enrolled",
    "conditions_not_met",
    "withdrawn",
  ],
  rejected: [],
  declined: [],
  offer_expired: [],
  enrolled: [],
  conditions_not_met: [],
  withdrawn: [],
};

const everyone = new Set<Mover>(["owner", "staff", "admin", "system"]);

function outcome(from: ApplicationStatus, to: ApplicationStatus, movers: Set<Mover>) {
  try {
    assertTransition(from, to, movers);
    return "ok";
  } catch (error) {
    return error instanceof HttpProblem ? `${error.status} ${error.code}` : String(error);
  }
}

describe("the transition table", () => {
  test.each(STATUSES.map((status) => [status]))("from %s: exactly the issue's moves", (from) => {
    expect(nextStatuses(from).sort()).toEqual([...EXPECTED[from]].sort());
    for (const to of STATUSES) {
      const expected = EXPECTED[from].includes(to) ? "ok" : "409 ILLEGAL_TRANSITION";
      expect(outcome(from, to, everyone)).toBe(expected);
    }
  });

  test("final statuses are exactly those with no way out; withdrawal is open from all others", () => {
    for (const status of STATUSES) {
      expect(isFinal(status)).toBe(EXPECTED[status].length === 0);
      if (!isFinal(status)) expect(EXPECTED[status]).toContain("withdrawn");
    }
  });

  test("who makes which move", () => {
    const owner = new Set<Mover>(["owner"]);
    const staff = new Set<Mover>(["staff"]);
    const admin = new Set<Mover>(["staff", "admin"]);
    expect(outcome("draft", "submitted", owner)).toBe("ok");
    expect(outcome("draft", "submitted", admin)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("submitted", "under_review", owner)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("submitted", "under_review", staff)).toBe("ok");
    // Decisions are admins' (issue 7); reviewers recommend.
    expect(outcome("under_review", "offered", staff)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("under_review", "offered", admin)).toBe("ok");
    expect(outcome("waitlisted", "offered", staff)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("offered", "accepted", owner)).toBe("ok");
    expect(outcome("conditionally_offered", "accepted", owner)).toBe("ok");
    expect(outcome("offered", "declined", staff)).toBe("403 TRANSITION_FORBIDDEN");
    // Offers expire on their own (the system), or by an admin; never by the applicant.
    expect(outcome("offered", "offer_expired", new Set<Mover>(["system"]))).toBe("ok");
    expect(outcome("offered", "offer_expired", staff)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("offered", "offer_expired", owner)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("accepted", "enrolled", staff)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("accepted", "withdrawn", new Set<Mover>(["system"]))).toBe(
      "403 TRANSITION_FORBIDDEN",
    );
    expect(outcome("accepted", "enrolled", owner)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("submitted", "withdrawn", staff)).toBe("403 TRANSITION_FORBIDDEN");
    expect(outcome("submitted", "withdrawn", admin)).toBe("ok");
    expect(outcome("waitlisted", "withdrawn", owner)).toBe("ok");
  });

  test("capacities: the applicant owns only their own; staff never own", () => {
    expect([...moversFor({ id: "a", role: "applicant" }, "a")]).toEqual(["owner"]);
    expect([...moversFor({ id: "a", role: "applicant" }, "b")]).toEqual([]);
    expect([...moversFor({ id: "r", role: "reviewer" }, "r")]).toEqual(["staff"]);
    expect([...moversFor({ id: "x", role: "admin" }, "a")]).toEqual(["staff", "admin"]);
    expect([...moversFor({ id: null, role: "system" }, "a")]).toEqual(["system"]);
  });
});
