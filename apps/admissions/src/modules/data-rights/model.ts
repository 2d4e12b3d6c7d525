import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, idInput, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";

export const REQUEST_KINDS = ["export", "erasure"] as const;
export const REQUEST_STATUSES = ["pending", "completed", "rejected", "cancelled"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const DataRequest = t.Object({
  id: Id,
  kind: enumOf(REQUEST_KINDS, {
    description:
      "export: a download of your data (recorded when made); erasure: your account erased",
  }),
  status: enumOf(REQUEST_STATUSES, {
    description:
      "pending: an erasure waiting for an admin (an application is in progress); completed; rejected (by an admin, with a note); cancelled (by you)",
  }),
  user: t.Object(
    { id: Id, email: t.String(), fullName: t.String() },
    { description: "After an erasure, the pseudonyms that replaced them" },
  ),
  reason: t.Nullable(t.String({ description: "Yours, when you gave one" })),
  decisionNote: t.Nullable(t.String({ description: "An admin's note on a rejection" })),
  createdAt: Timestamp,
  decidedAt: t.Nullable(Timestamp),
  completedAt: t.Nullable(Timestamp),
  retainUntil: t.Nullable(
    t.String({
      format: "date-time",
      description: "An erasure's payment records are kept until then (legal retention)",
    }),
  ),
});
export type DataRequest = typeof DataRequest.static;

export const ErasureBody = t.Object(
  {
    password: t.String({ minLength: 1, maxLength: 128, description: "Your password, again" }),
    reason: t.Optional(multiLineText({ maxLength: 2_000 })),
  },
  { examples: [{ password: "correct-horse-battery", reason: "I no longer wish to apply" }] },
);
export type ErasureBody = typeof ErasureBody.static;

export const RejectBody = t.Object(
  {
    note: multiLineText({
      minLength: 1,
      maxLength: 2_000,
      description: "Why, told to the applicant",
    }),
  },
  {
    examples: [{ note: "Your enrolment is being finalised; we must keep your record until then." }],
  },
);

export const RequestsQuery = t.Object({
  ...PageQuery,
  status: t.Optional(enumOf(REQUEST_STATUSES)),
  kind: t.Optional(enumOf(REQUEST_KINDS)),
  userId: t.Optional(idInput({ description: "Admins: one account's requests" })),
});
export type RequestsQuery = typeof RequestsQuery.static;

export const DataRequestPage = Paginated(DataRequest, "Data-rights requests, newest first");
