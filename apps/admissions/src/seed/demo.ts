import type { Db } from "../db/client.ts";
import { isoAt, newId } from "../lib/ids.ts";
import type { PasswordCost, Role } from "../modules/users/model.ts";
import { hashPassword } from "../modules/users/service.ts";
import type { ApplicationStatus } from "../modules/workflow/model.ts";
import { rebuildCounts } from "../modules/workflow/service.ts";
import { insertRows } from "./bulk.ts";
import { DEMO_PROGRAMS } from "./demo-catalog.ts";

const DAY = 86_400_000;

export const DEMO_USERS: { email: string; fullName: string; role: Role }[] = [
  { email: "admin@northbridge.example", fullName: "Morgan Admin", role: "admin" },
  { email: "reviewer@northbridge.example", fullName: "Riley Reviewer", role: "reviewer" },
  { email: "ada.lovelace@example.org", fullName: "Ada Lovelace", role: "applicant" },
  { email: "alan.turing@example.org", fullName: "Alan Turing", role: "applicant" },
  { email: "grace.hopper@example.org", fullName: "Grace Hopper", role: "applicant" },
  { email: "katherine.johnson@example.org", fullName: "Katherine Johnson", role: "applicant" },
];

/** Demo applications: applicant, program code, which intake, and where it has got to. */
const DEMO_APPLICATIONS: [string, string, "past" | "current", ApplicationStatus][] = [
  ["ada.lovelace@example.org", "CS-BSC", "current", "submitted"],
  ["ada.lovelace@example.org", "DS-MSC", "current", "draft"],
  ["alan.turing@example.org", "AI-PHD", "current", "under_review"],
  ["alan.turing@example.org", "MBA", "past", "enrolled"],
  ["grace.hopper@example.org", "SE-BSC", "current", "offered"],
  ["grace.hopper@example.org", "CYB-MSC", "past", "rejected"],
  ["katherine.johnson@example.org", "DATA-CERT", "current", "draft"],
  ["katherine.johnson@example.org", "PH-MSC", "current", "waitlisted"],
];

/** The moves that lead from a new draft to `status`, as the lifecycle table allows them. */
const PATHS: Partial<Record<ApplicationStatus, ApplicationStatus[]>> = {
  draft: [],
  submitted: ["submitted"],
  under_review: ["submitted", "under_review"],
  offered: ["submitted", "under_review", "offered"],
  waitlisted: ["submitted", "under_review", "waitlisted"],
  rejected: ["submitted", "under_review", "rejected"],
  enrolled: ["submitted", "under_review", "offered", "accepted", "enrolled"],
};
const APPLICANT_MOVES = new Set<ApplicationStatus>(["submitted", "accepted", "declined"]);
/** Moves a reviewer makes; every other staff move is a decision, which is an admin's. */
const REVIEWER_MOVES = new Set<ApplicationStatus>(["under_review"]);

/** The demo rubric every program gets, so reviewers can score straight away. */
const DEMO_RUBRIC = {
  min_score: 1,
  max_score: 5,
  criteria: JSON.stringify([
    { key: "academic_record", label: "Academic record", weight: 3 },
    { key: "statement", label: "Personal statement", weight: 2 },
    { key: "references", label: "References", weight: 1 },
  ]),
};

/** "Autumn 2026" for an intake whose studies start in September to December, and so on. */
function termName(startMs: number): string {
  const start = new Date(startMs);
  const month = start.getUTCMonth();
  const season = month >= 8 ? "Autumn" : month >= 4 ? "Summer" : "Spring";
  return `${season} ${start.getUTCFullYear()}`;
}

/** The three intakes of each program: last year's (closed), the open one and the next one. */
function intakeWindows(nowMs: number) {
  const window = (opens: number, deadline: number) => ({
    opens_at: isoAt(nowMs + opens * DAY),
    deadline: isoAt(nowMs + deadline * DAY),
    term: termName(nowMs + (deadline + 60) * DAY),
  });
  return {
    past: window(-425, -320),
    current: window(-60, 45),
    next: window(140, 245),
  };
}

export type SeedSummary = {
  programs: number;
  intakes: number;
  users: number;
  applications: number;
};

/**
 * Loads the demo catalog, demo accounts (all with `password`) and a few applications with their
 * history, in one transaction. Does nothing when the catalog already holds the demo programs.
 */
export async function seedDemo(
  db: Db,
  opts: { nowMs: number; password: string; cost: PasswordCost },
): Promise<SeedSummary | null> {
  const passwordHash = await hashPassword(opts.password, opts.cost);
  const at = isoAt(opts.nowMs);
  return db.transaction(async (tx) => {
    const [existing] =
      await tx`SELECT id FROM programs WHERE code = ${DEMO_PROGRAMS[0]?.code ?? ""}`;
    if (existing) return null;

    const programs = DEMO_PROGRAMS.map((p) => ({
      id: newId(),
      code: p.code,
      name: p.name,
      level: p.level,
      department: p.department,
      description: p.description ?? "",
      duration_months: p.durationMonths,
      application_fee: p.applicationFee.amount,
      currency: p.applicationFee.currency,
      entry_requirements: p.entryRequirements ?? "",
      required_documents: JSON.stringify(p.requiredDocuments ?? []),
      active: true,
      created_at: at,
      updated_at: at,
    }));
    const windows = intakeWindows(opts.nowMs);
    const intakes = programs.flatMap((program) =>
      (["past", "current", "next"] as const).map((when) => ({
        id: newId(),
        program_id: program.id,
        ...windows[when],
        capacity: program.level === "bachelor" ? 120 : 40,
        created_at: at,
        updated_at: at,
        when,
        code: program.code,
      })),
    );
    const users = DEMO_USERS.map((user) => ({
      id: newId(),
      ...{ email: user.email, full_name: user.fullName, role: user.role },
      password_hash: passwordHash,
      active: true,
      // Demo accounts are ready to use: their made-up addresses could never open a link.
      email_verified_at: at,
      created_at: at,
      updated_at: at,
    }));

    const reviewer = users.find((user) => user.role === "reviewer");
    const admin = users.find((user) => user.role === "admin");
    const applications = [];
    const transitions = [];
    for (const [email, code, when, status] of DEMO_APPLICATIONS) {
      const applicant = users.find((user) => user.email === email);
      const intake = intakes.find((i) => i.code === code && i.when === when);
      if (!applicant || !intake || !reviewer || !admin) {
        throw new Error(`bad demo row ${email} ${code}`);
      }
      const created = Date.parse(intake.opens_at) + 7 * DAY;
      const id = newId();
      const moves = PATHS[status] ?? [];
      let from: ApplicationStatus | null = null;
      for (const [step, to] of [...["draft" as const], ...moves].entries()) {
        const actor =
          step === 0 || APPLICANT_MOVES.has(to)
            ? applicant
            : REVIEWER_MOVES.has(to)
              ? reviewer
              : admin;
        transitions.push({
          id: newId(),
          application_id: id,
          from_status: from,
          to_status: to,
          actor_id: actor.id,
          actor_role: actor.role,
          reason: null,
          client_ip: null,
          created_at: isoAt(created + step * 3 * DAY),
        });
        from = to;
      }
      applications.push({
        id,
        applicant_id: applicant.id,
        program_id: intake.program_id,
        intake_id: intake.id,
        status,
        version: moves.length + 1,
        personal_statement: `Why I want to study ${code}: a demo statement.`,
        prior_qualification: "Upper-secondary diploma",
        prior_institution: "Riverside Academy",
        graduation_year: 2025,
        created_at: isoAt(created),
        updated_at: isoAt(created + moves.length * 3 * DAY),
        submitted_at: moves.length > 0 ? isoAt(created + 3 * DAY) : null,
        // Offers made in the demo are answerable for two weeks from the seed.
        offer_respond_by: moves.includes("offered") ? isoAt(opts.nowMs + 14 * DAY) : null,
        offer_conditions: null,
        waitlist_position: status === "waitlisted" ? 1 : null,
      });
    }

    await insertRows(tx, "programs", programs);
    await insertRows(
      tx,
      "intakes",
      intakes.map(({ when: _w, code: _c, ...row }) => row),
    );
    await insertRows(tx, "users", users);
    await insertRows(tx, "applications", applications);
    await insertRows(tx, "application_transitions", transitions);
    if (reviewer && admin) {
      await insertRows(
        tx,
        "program_reviewers",
        programs.map((p) => ({
          program_id: p.id,
          reviewer_id: reviewer.id,
          last_assigned_at: null,
          created_at: at,
        })),
      );
      await insertRows(
        tx,
        "rubrics",
        programs.map((p) => ({
          program_id: p.id,
          ...DEMO_RUBRIC,
          updated_by: admin.id,
          updated_at: at,
        })),
      );
    }
    await rebuildCounts(tx);
    return {
      programs: programs.length,
      intakes: intakes.length,
      users: users.length,
      applications: applications.length,
    };
  });
}
