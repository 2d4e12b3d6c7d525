import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { Id, int, Timestamp } from "../../lib/schema.ts";
import { PersonalDetails, PersonalDetailsInput } from "../users/model.ts";
import { ActorRole } from "../workflow/model.ts";

const example = {
  legalName: "Augusta Ada King",
  preferredName: "Ada",
  dateOfBirth: "2007-12-10",
  nationality: "GB",
  address: {
    lines: ["12 St James's Square"],
    city: "London",
    region: null,
    postcode: "SW1Y 4JH",
    country: "GB",
  },
  phone: "+442071234567",
};

export const Profile = t.Composite(
  [
    PersonalDetails,
    t.Object({
      version: int({ minimum: 0, description: "Bumped by every change; 0 before the first" }),
      updatedAt: t.Nullable(Timestamp),
    }),
  ],
  { description: "Your personal details; new applications are prefilled from them" },
);
export type Profile = typeof Profile.static;

/** PUT: every field, null for one left empty. */
export const ProfileReplace = t.Composite([PersonalDetailsInput], { examples: [example] });
/** PATCH: the fields to change. */
export const ProfilePatch = t.Partial(PersonalDetailsInput, {
  minProperties: 1,
  examples: [{ phone: "+442071234567" }],
});
export type ProfilePatch = typeof ProfilePatch.static;

export const ProfileChange = t.Object({
  id: Id,
  at: Timestamp,
  changedBy: t.Object({ id: Id, role: ActorRole }),
  fields: t.Array(t.String(), { description: "The fields changed" }),
  changes: t.Record(t.String(), t.Object({ from: t.Unknown(), to: t.Unknown() }), {
    description: "Each changed field's value before and after",
  }),
});
export type ProfileChange = typeof ProfileChange.static;

export const HistoryQuery = t.Object(PageQuery);
export const ProfileHistoryPage = Paginated(ProfileChange, "Changes to your profile, newest first");
