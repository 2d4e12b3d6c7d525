import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idInput, int, Timestamp, unchecked } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";
import { ApplicationListQuery } from "../applications/model.ts";
import { Email, FullName, Password, User } from "../users/model.ts";
import { Application, ApplicationStatus, DecisionFields, ReasonCode } from "../workflow/model.ts";

export const STAFF_ROLES = ["reviewer", "admin"] as const;
export const StaffRole = enumOf(STAFF_ROLES);

export const StaffCreate = t.Object(
  { email: Email, fullName: FullName, password: Password, role: StaffRole },
  {
    examples: [
      {
        email: "riley.reviewer@example.org",
        fullName: "Riley Reviewer",
        password: "a-long-initial-password",
        role: "reviewer",
      },
    ],
  },
);
export type StaffCreate = typeof StaffCreate.static;

export const StaffUpdate = t.Object(
  {
    fullName: t.Optional(FullName),
    active: t.Optional(
      t.Boolean({ description: "false: signs the account out and keeps it out of assignments" }),
    ),
  },
  { minProperties: 1, examples: [{ active: false }] },
);
export type StaffUpdate = typeof StaffUpdate.static;

export const StaffQuery = t.Object({
  ...PageQuery,
  role: t.Optional(StaffRole),
  active: t.Optional(t.BooleanString()),
});
export type StaffQuery = typeof StaffQuery.static;

export const StaffPage = Paginated(User, "Staff accounts, by name");

export const ReviewerPool = t.Object(
  { reviewerIds: t.Array(idInput(), { maxItems: 200, uniqueItems: true }) },
  { examples: [{ reviewerIds: ["0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10"] }] },
);
export type ReviewerPool = typeof ReviewerPool.static;

export const PoolMember = t.Object({
  reviewer: User,
  lastAssignedAt: t.Nullable(Timestamp),
});
export const PoolMembers = t.Array(PoolMember, {
  description: "The program's reviewers; round-robin picks the one assigned longest ago",
});

export { Accepted as PasswordResetSent } from "../account/model.ts";

// Back-office work on many applications at once: bulk moves, the CSV export, the counts.

export const MAX_BULK = 200;

export const BulkTransitionBody = t.Object(
  {
    applicationIds: t.Array(idInput(), {
      minItems: 1,
      maxItems: MAX_BULK,
      uniqueItems: true,
    }),
    to: ApplicationStatus,
    reason: t.Optional(multiLineText({ maxLength: 2_000 })),
    reasonCode: t.Optional(ReasonCode),
    ...DecisionFields,
  },
  {
    examples: [
      {
        applicationIds: [
          "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10",
          "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a11",
        ],
        to: "rejected",
        reason: "Entry requirements not met",
      },
    ],
  },
);
export type BulkTransitionBody = typeof BulkTransitionBody.static;

export const BulkResult = t.Object({
  batchId: t.String({ format: "uuid", description: "Names this change in the audit log" }),
  moved: int({ minimum: 1 }),
  applications: t.Array(t.Object({ id: Id, status: ApplicationStatus, version: int() })),
});

/** In a BULK_REFUSED problem: why each refused application could not move. */
export const Refusal = t.Object({
  applicationId: t.String(),
  status: int({ description: "The HTTP status this move alone would have had" }),
  code: t.String(),
  detail: t.String(),
});
export type Refusal = typeof Refusal.static;

const {
  limit: _limit,
  offset: _offset,
  ordering: _ordering,
  ...filters
} = ApplicationListQuery.properties;

/** The fee as the office sees it: the submission guard's view, and a transfer awaiting confirmation. */
export const PAYMENT_STATES = ["paid", "waived", "not_required", "pending", "unpaid"] as const;
export const PaymentState = enumOf(PAYMENT_STATES, {
  description:
    "paid (a payment succeeded and was not refunded in full), waived, not_required (no fee), pending (a payment awaits confirmation or the provider), unpaid",
});

export const QUEUE_FLAGS = ["unassigned", "unscored", "disagreement", "conflict"] as const;
export const QueueFlag = enumOf(QUEUE_FLAGS, {
  description:
    "unassigned: no reviewer; unscored: no counted review; disagreement: the reviews' totals were far enough apart to ask for an extra review; conflict: a reviewer declared a conflict of interest",
});

const score = (description: string) => t.Number({ minimum: 0, maximum: 1_000, description });

/** The office's filters beyond the list's: payment, score and flags. */
const officeFilters = {
  paymentState: t.Optional(PaymentState),
  scoreMin: t.Optional(score("Mean weighted total at least this, on the rubric's scale")),
  scoreMax: t.Optional(score("Mean weighted total at most this, on the rubric's scale")),
  flag: t.Optional(QueueFlag),
};

export const ExportQuery = t.Object({ ...filters, ...officeFilters });
export type ExportQuery = typeof ExportQuery.static;

export const OFFICE_ORDERINGS = [
  "submittedAt",
  "-submittedAt",
  "score",
  "-score",
  "deadline",
  "-deadline",
  "applicant",
  "-applicant",
] as const;

export const OfficeQueueQuery = t.Object({
  ...PageQuery,
  ...ExportQuery.properties,
  ordering: t.Optional(
    enumOf(OFFICE_ORDERINGS, {
      default: "submittedAt",
      description:
        "score: unscored last either way; deadline: the intake's; applicant: by name. Ties: oldest submission, then id",
    }),
  ),
});
export type OfficeQueueQuery = typeof OfficeQueueQuery.static;

export const OfficeQueueRow = t.Object({
  application: Application,
  score: t.Nullable(
    t.Number({ description: "Mean of the counted reviews' weighted totals, two decimals" }),
  ),
  reviews: int({
    minimum: 0,
    description: "Counted reviews (a conflicted reviewer's do not count)",
  }),
  assignees: t.Array(t.Object({ id: Id, fullName: t.String(), reviewed: t.Boolean() })),
  payment: t.Object({
    state: PaymentState,
    pendingReference: t.Nullable(t.String({ description: "The reference of the pending one" })),
  }),
  flags: t.Array(QueueFlag),
});
export type OfficeQueueRow = typeof OfficeQueueRow.static;

const queuePage = Paginated(OfficeQueueRow, "The office's queue, a page");
export const OfficeQueuePage = unchecked(
  t.Object({
    ...queuePage.properties,
    countsByStatus: t.Record(t.String(), int({ minimum: 0 }), {
      description:
        "status → applications matching every filter but `status`: the counts beside the status filter",
    }),
  }),
);
export type OfficeQueuePage = typeof OfficeQueuePage.static;

const Counts = t.Record(t.String(), int(), { description: "status → applications" });
export const Stats = t.Object({
  total: int({ minimum: 0 }),
  byStatus: Counts,
  byProgram: t.Array(
    t.Object({
      program: t.Object({ id: t.String(), code: t.String(), name: t.String() }),
      total: int({ minimum: 0 }),
      byStatus: Counts,
    }),
  ),
  byIntake: t.Array(
    t.Object({
      intake: t.Object({
        id: t.String(),
        term: t.String(),
        programId: t.String(),
        capacity: int({ minimum: 1 }),
      }),
      total: int({ minimum: 0 }),
      byStatus: Counts,
    }),
  ),
});
export type Stats = typeof Stats.static;

export const StatsQuery = t.Object({
  programId: t.Optional(idInput()),
  intakeId: t.Optional(idInput()),
});
export type StatsQuery = typeof StatsQuery.static;

const ReasonCounts = t.Array(
  t.Object({
    code: t.Nullable(t.String({ description: "null: moves made without a code" })),
    label: t.Nullable(t.String()),
    total: int({ minimum: 0 }),
  }),
  { description: "Most frequent first" },
);
export const ReasonStats = t.Object({
  rejection: ReasonCounts,
  withdrawal: ReasonCounts,
  decline: ReasonCounts,
});
export type ReasonStats = typeof ReasonStats.static;

export const ReasonStatsQuery = t.Object({
  ...StatsQuery.properties,
  from: t.Optional(t.String({ format: "date-time", description: "Moves at or after" })),
  to: t.Optional(t.String({ format: "date-time", description: "Moves before" })),
});
export type ReasonStatsQuery = typeof ReasonStatsQuery.static;

export const EXPORT_FORMATS = ["csv"] as const;
export const ExportFormat = enumOf(EXPORT_FORMATS);
