import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Timestamp } from "../../lib/schema.ts";
import { Email, FullName, Password, User } from "../users/model.ts";

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
  { reviewerIds: t.Array(t.String({ maxLength: 64 }), { maxItems: 200, uniqueItems: true }) },
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

export const IdParams = t.Object({ id: t.String({ maxLength: 64 }) });
