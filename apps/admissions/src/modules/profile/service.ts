import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/dialect.ts";
import { isoAt } from "../../lib/ids.ts";
import { type Page, toPage } from "../../lib/pagination.ts";
import { enqueueEmail } from "../outbox/service.ts";
import type { PersonalDetails, User } from "../users/model.ts";
import type { TransitionEffects } from "../workflow/model.ts";
import { lostRace } from "../workflow/service.ts";
import {
  appendHistory,
  type Changes,
  deleteProfile,
  EMPTY,
  findProfile,
  historyOf,
  saveProfile,
} from "./internal/queries.ts";
import { assertValid, normalize } from "./internal/validate.ts";
import type { Profile, ProfilePatch } from "./model.ts";

export { AGE_RANGE } from "./internal/validate.ts";

export type ProfileDeps = { db: Db; now: () => number; portalUrl: string };

const FIELDS = Object.keys(EMPTY) as (keyof PersonalDetails)[];
const LABELS: Record<keyof PersonalDetails, string> = {
  legalName: "legal name",
  preferredName: "preferred name",
  dateOfBirth: "date of birth",
  nationality: "nationality",
  address: "address",
  phone: "phone number",
};

export const getProfile = (deps: ProfileDeps, user: User): Promise<Profile> =>
  deps.db.run((sql) => findProfile(sql, user.id));

const detailsOf = (profile: Profile): PersonalDetails =>
  Object.fromEntries(FIELDS.map((field) => [field, profile[field]])) as PersonalDetails;

/** PUT: the whole profile. */
export const replaceProfile = (deps: ProfileDeps, actor: User, body: PersonalDetails) =>
  saveDetails(deps, actor, () => body);

/** PATCH: the fields sent, the others kept. */
export const patchProfile = (deps: ProfileDeps, actor: User, body: ProfilePatch) =>
  saveDetails(deps, actor, (current) => ({ ...current, ...body }));

/**
 * One change: validated, written as the next version with a history row of what changed
 * (each field's old and new value), and the applicant emailed which fields changed. A change
 * that changes nothing writes nothing. Two racing changes: the second gets 409.
 */
async function saveDetails(
  deps: ProfileDeps,
  actor: User,
  edit: (current: PersonalDetails) => PersonalDetails,
): Promise<Profile> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  try {
    return await deps.db.transaction(async (tx) => {
      const current = await findProfile(tx, actor.id);
      const before = detailsOf(current);
      const next = normalize(edit(before));
      assertValid(next, nowMs);
      const changes: Changes = {};
      for (const field of FIELDS) {
        if (JSON.stringify(before[field]) !== JSON.stringify(next[field])) {
          changes[field] = { from: before[field], to: next[field] };
        }
      }
      if (Object.keys(changes).length === 0) return current;
      const saved = await saveProfile(tx, actor.id, next, current.version, at);
      if (!saved) throw lostRace();
      await appendHistory(tx, { userId: actor.id, changedBy: actor.id, changes, at });
      await enqueueProfileEmail(tx, deps.portalUrl, actor.email, Object.keys(changes), at);
      return findProfile(tx, actor.id);
    });
  } catch (error) {
    // Two first saves racing: the row the other one inserted wins.
    if (isUniqueViolation(error)) throw lostRace();
    throw error;
  }
}

/** Which fields changed (never their values); its one link is the portal's profile page. */
export function profileUpdatedEmail(portalUrl: string, fields: string[]) {
  const changed = fields.map((f) => LABELS[f as keyof PersonalDetails] ?? f).join(", ");
  const page = `${portalUrl}/account/profile`;
  return {
    subject: "Your profile was updated",
    body: `These details of your admissions profile were changed: ${changed}.\n\nIf this was not you, change your password and contact the admissions office at once.\n\nYour profile: ${page}`,
    links: [page],
  };
}

async function enqueueProfileEmail(
  tx: SQL,
  portalUrl: string,
  to: string,
  fields: string[],
  at: string,
) {
  const email = profileUpdatedEmail(portalUrl, fields);
  await enqueueEmail(tx, { applicationId: null, event: "profile.updated", to, ...email }, at);
}

export const profileHistory = (deps: ProfileDeps, user: User, page: Page, requestUrl: string) =>
  deps.db.run(async (sql) => {
    const { count, results } = await historyOf(sql, user.id, page);
    return toPage(requestUrl, page, count, results);
  });

/** The applicant's details for an application to carry; null without a profile. */
export async function profileSnapshot(sql: SQL, userId: string): Promise<PersonalDetails | null> {
  const profile = await findProfile(sql, userId);
  return profile.version === 0 ? null : detailsOf(profile);
}

/** At submission the application takes the profile as it is then (a draft may be old). */
export const profileSnapshotEffects: TransitionEffects = {
  async prepare(move): Promise<Record<string, string>> {
    if (move.to !== "submitted") return {};
    const snapshot = await profileSnapshot(move.tx, move.before.applicant.id);
    return snapshot ? { applicant_snapshot: JSON.stringify(snapshot) } : {};
  },
  settle: async () => {},
};

/** Erasure: the profile and its whole history go. */
export const eraseProfile = (tx: SQL, userId: string) => deleteProfile(tx, userId);

/** For the data export: the profile and its full history, oldest first. */
export async function profileRecords(sql: SQL, userId: string) {
  const profile = await findProfile(sql, userId);
  const { results } = await historyOf(sql, userId, { limit: 1_000_000, offset: 0 });
  return { profile, history: results.reverse() };
}
