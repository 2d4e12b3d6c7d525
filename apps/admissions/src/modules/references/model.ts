import { t } from "elysia";
import { enumOf, Id, idInput, idParams, int, Timestamp } from "../../lib/schema.ts";
import { multiLineText, singleLineText } from "../../lib/text.ts";
import { Email, FullName } from "../users/model.ts";

export const REFERENCE_STATUSES = ["requested", "reminded", "received"] as const;
export const ReferenceStatus = enumOf(REFERENCE_STATUSES, {
  description:
    "requested: the referee was emailed a link; reminded: at least one reminder went out; received: the referee submitted (the link is dead)",
});
export type ReferenceStatus = typeof ReferenceStatus.static;

/** What the applicant and staff both see of a request: never its content. */
export const Reference = t.Object({
  id: Id,
  applicationId: Id,
  refereeName: t.String(),
  refereeEmail: t.String(),
  relationship: t.String(),
  status: ReferenceStatus,
  remindersSent: int({ minimum: 0 }),
  requestedAt: Timestamp,
  lastEmailedAt: Timestamp,
  receivedAt: t.Nullable(Timestamp),
});
export type Reference = typeof Reference.static;

export const ReferenceList = t.Object({
  applicationId: Id,
  maxReferees: int({ minimum: 1, description: "Referees one application may name" }),
  references: t.Array(Reference),
});
export type ReferenceList = typeof ReferenceList.static;

export const ReferenceFile = t.Object({
  fileName: t.String({ examples: ["reference.pdf"] }),
  mediaType: t.Literal("application/pdf"),
  size: int({ minimum: 1, description: "Bytes" }),
  sha256: t.String({ pattern: "^[0-9a-f]{64}$" }),
  downloadUrl: t.String({ examples: ["/api/v1/references/…/file/"] }),
});

/** Staff only: the reference itself, written or uploaded. */
export const ReferenceContent = t.Object({
  ...Reference.properties,
  text: t.Nullable(t.String({ description: "The reference as written in the form" })),
  file: t.Nullable(ReferenceFile),
});
export type ReferenceContent = typeof ReferenceContent.static;

export const RefereeCreate = t.Object(
  {
    applicationId: idInput(),
    name: FullName,
    email: Email,
    relationship: singleLineText({
      minLength: 1,
      maxLength: 200,
      description: "How the referee knows the applicant",
    }),
  },
  {
    examples: [
      {
        applicationId: "0198…",
        name: "Prof. Charles Babbage",
        email: "babbage@example.edu",
        relationship: "Supervisor of my final-year project",
      },
    ],
  },
);
export type RefereeCreate = typeof RefereeCreate.static;

export const ReferenceListQuery = idParams("applicationId");
export const ReferenceParams = idParams("referenceId");

/** The link's token, from the emailed link's `?token=`; sent in the body, never in a URL path. */
const LinkToken = t.String({ minLength: 1, maxLength: 128 });

export const LinkOpen = t.Object({ token: LinkToken });

export const REFERENCE_TEXT_MIN = 50;
export const REFERENCE_TEXT_MAX = 20_000;

export const LinkText = t.Object(
  {
    token: LinkToken,
    text: multiLineText({
      minLength: REFERENCE_TEXT_MIN,
      maxLength: REFERENCE_TEXT_MAX,
      description: `The reference, ${REFERENCE_TEXT_MIN} to ${REFERENCE_TEXT_MAX} characters`,
    }),
  },
  {
    examples: [
      { token: "…", text: "I supervised Ada's final-year project and recommend her warmly …" },
    ],
  },
);
export type LinkText = typeof LinkText.static;

/** What the referee's page shows: who asked, for what, until when. */
export const RefereeInvitation = t.Object({
  refereeName: t.String(),
  applicantName: t.String(),
  programName: t.String(),
  intakeTerm: t.String(),
  expiresAt: Timestamp,
  textMinLength: int(),
  textMaxLength: int(),
  maxFileBytes: int({ description: "Largest PDF accepted" }),
});
export type RefereeInvitation = typeof RefereeInvitation.static;

/** The multipart body of the upload, for the reference only (the route streams it itself). */
export const linkUploadBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["token", "file"],
        properties: {
          token: { type: "string" as const, description: "The emailed link's token" },
          file: {
            type: "string" as const,
            format: "binary",
            description: "The reference as a PDF, at most 10 MiB",
          },
        },
      },
      encoding: { file: { contentType: "application/pdf" } },
    },
  },
};
