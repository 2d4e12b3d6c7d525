import { t } from "elysia";
import { enumOf, Id, idInput, idParams, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText, singleLineText } from "../../lib/text.ts";

export const INTERVIEW_STATUSES = [
  "open",
  "invited",
  "confirmed",
  "reschedule_requested",
  "cancelled",
] as const;
export const InterviewStatus = enumOf(INTERVIEW_STATUSES, {
  description:
    "open: a slot nobody is invited to; invited: waiting for the applicant; confirmed; reschedule_requested: the applicant asked for another time; cancelled",
});
export type InterviewStatus = typeof InterviewStatus.static;

const Person = t.Object({ id: Id, email: t.String(), fullName: t.String() });

export const InterviewScore = t.Object({
  panelist: Person,
  score: int({ description: "On the program rubric's scale" }),
  comment: t.String(),
  updatedAt: Timestamp,
});

export const Interview = t.Object({
  id: Id,
  applicationId: t.Nullable(Id, { description: "null while the slot is open" }),
  status: InterviewStatus,
  startsAt: Timestamp,
  endsAt: Timestamp,
  location: t.Nullable(t.String(), { description: "The place; null for an online interview" }),
  meetingUrl: t.Nullable(t.String(), { description: "The video link; null in person" }),
  sequence: int({
    minimum: 0,
    description: "The invitation's iCalendar SEQUENCE: raised by every reschedule and cancel",
  }),
  applicantNote: t.Nullable(
    t.String({
      description: "The applicant's note: why they asked for another time, or cancelled",
    }),
  ),
  cancelReason: t.Nullable(t.String()),
  panel: t.Array(Person, { description: "Staff only (empty for the applicant)" }),
  scores: t.Array(InterviewScore, { description: "Staff only (empty for the applicant)" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Interview = typeof Interview.static;

export const InterviewList = t.Object({
  results: t.Array(Interview, { description: "By start time; at most 200" }),
});

const Where = {
  location: t.Optional(
    singleLineText({
      minLength: 1,
      maxLength: 300,
      description: "In person: where (or meetingUrl)",
    }),
  ),
  meetingUrl: t.Optional(
    t.String({
      maxLength: 500,
      pattern: "^https://[^\\s]+$",
      description: "Online: an https link (or location)",
    }),
  ),
};

export const SlotCreate = t.Object(
  {
    startsAt: t.String({ format: "date-time", description: "In the future" }),
    durationMinutes: int({ minimum: 5, maximum: 480 }),
    ...Where,
    panel: t.Array(idInput(), {
      minItems: 1,
      maxItems: 10,
      uniqueItems: true,
      description: "Staff user ids (reviewers or admins, active)",
    }),
  },
  {
    examples: [
      {
        startsAt: "2026-12-01T09:00:00Z",
        durationMinutes: 30,
        meetingUrl: "https://meet.example.org/abc",
        panel: ["0198f2c4-…"],
      },
    ],
  },
);
export type SlotCreate = typeof SlotCreate.static;

export const Reschedule = t.Object({
  startsAt: t.String({ format: "date-time", description: "In the future" }),
  durationMinutes: t.Optional(int({ minimum: 5, maximum: 480, description: "Default: as is" })),
  ...Where,
});
export type Reschedule = typeof Reschedule.static;

export const Invite = idParams("applicationId");
export type Invite = typeof Invite.static;

export const Note = t.Optional(t.Object({ note: t.Optional(multiLineText({ maxLength: 2_000 })) }));
export type Note = typeof Note.static;

export const ScoreBody = t.Object({
  score: int({ minimum: 0, maximum: 100, description: "Within the program rubric's scale" }),
  comment: t.Optional(multiLineText({ maxLength: 10_000 })),
});
export type ScoreBody = typeof ScoreBody.static;

export const InterviewQuery = t.Object({
  applicationId: t.Optional(idInput()),
  status: t.Optional(InterviewStatus),
  from: t.Optional(
    t.String({
      format: "date-time",
      description: "Only interviews that end after this moment (now: the ones still to come)",
    }),
  ),
  mine: t.Optional(
    t.BooleanString({ description: "Staff: true for only the interviews whose panel I sit on" }),
  ),
});
export type InterviewQuery = typeof InterviewQuery.static;

export const InterviewParams = idParams("interviewId");

const UUID_LIST = "^[0-9a-fA-F-]{1,64}(,[0-9a-fA-F-]{1,64}){0,9}$";

/** A slot not yet made (or one being moved): who of its panel is busy then. */
export const ClashQuery = t.Object({
  startsAt: t.String({ format: "date-time" }),
  durationMinutes: t.Integer({ minimum: 5, maximum: 480 }),
  panel: t.String({
    pattern: UUID_LIST,
    description: "1–10 staff user ids, comma-separated",
    examples: ["0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10"],
  }),
  exceptId: t.Optional(
    idInput({ description: "The interview being moved: it never clashes with itself" }),
  ),
});
export type ClashQuery = typeof ClashQuery.static;

export const Clashes = t.Object({
  clashes: t.Array(
    t.Object({
      userId: Id,
      interviewId: Id,
      startsAt: Timestamp,
      endsAt: Timestamp,
    }),
    { description: "Each panel member busy then, with the live interview they are on" },
  ),
});
export type Clashes = typeof Clashes.static;
