import type { SQL } from "bun";
import { toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { newId } from "../../../lib/ids.ts";
import type { Page } from "../../../lib/pagination.ts";
import type { PersonalDetails, Role } from "../../users/model.ts";
import type { Profile, ProfileChange } from "../model.ts";

type ProfileRow = {
  legal_name: string | null;
  preferred_name: string | null;
  date_of_birth: string | null;
  nationality: string | null;
  address: string | null;
  phone: string | null;
  version: number;
  updated_at: unknown;
};

export const EMPTY: PersonalDetails = {
  legalName: null,
  preferredName: null,
  dateOfBirth: null,
  nationality: null,
  address: null,
  phone: null,
};

const toDetails = (row: ProfileRow): PersonalDetails => ({
  legalName: row.legal_name,
  preferredName: row.preferred_name,
  dateOfBirth: row.date_of_birth,
  nationality: row.nationality,
  address: row.address === null ? null : (JSON.parse(row.address) as PersonalDetails["address"]),
  phone: row.phone,
});

export async function findProfile(sql: SQL, userId: string): Promise<Profile> {
  const [row] = (await sql`SELECT * FROM profiles WHERE user_id = ${userId}`) as ProfileRow[];
  if (!row) return { ...EMPTY, version: 0, updatedAt: null };
  return { ...toDetails(row), version: toInt(row.version), updatedAt: toIsoOrNull(row.updated_at) };
}

const columnsOf = (details: PersonalDetails) => ({
  legal_name: details.legalName,
  preferred_name: details.preferredName,
  date_of_birth: details.dateOfBirth,
  nationality: details.nationality,
  address: details.address === null ? null : JSON.stringify(details.address),
  phone: details.phone,
});

/**
 * Writes the details over version `from` (0: no row yet); false when another change got
 * there first.
 */
export async function saveProfile(
  tx: SQL,
  userId: string,
  details: PersonalDetails,
  from: number,
  at: string,
): Promise<boolean> {
  if (from === 0) {
    await tx`INSERT INTO profiles ${tx({
      user_id: userId,
      ...columnsOf(details),
      version: 1,
      created_at: at,
      updated_at: at,
    })}`;
    return true;
  }
  const result = await tx`UPDATE profiles
    SET ${tx({ ...columnsOf(details), version: from + 1, updated_at: at })}
    WHERE user_id = ${userId} AND version = ${from}`;
  return result.count === 1;
}

export type Changes = Record<string, { from: unknown; to: unknown }>;

export async function appendHistory(
  tx: SQL,
  entry: { userId: string; changedBy: string; changes: Changes; at: string },
) {
  await tx`INSERT INTO profile_history ${tx({
    id: newId(),
    user_id: entry.userId,
    changed_by: entry.changedBy,
    changes: JSON.stringify(entry.changes),
    created_at: entry.at,
  })}`;
}

type HistoryRow = {
  id: string;
  changed_by: string;
  changed_by_role: Role;
  changes: string;
  created_at: unknown;
};

const toChange = (row: HistoryRow): ProfileChange => {
  const changes = JSON.parse(row.changes) as Changes;
  return {
    id: row.id,
    at: toIso(row.created_at),
    changedBy: { id: row.changed_by, role: row.changed_by_role },
    fields: Object.keys(changes),
    changes,
  };
};

/** The history, newest first, with its total. */
export async function historyOf(sql: SQL, userId: string, page: Page) {
  const [total] = await sql`SELECT count(*) AS n FROM profile_history WHERE user_id = ${userId}`;
  const rows = (await sql`SELECT h.*, u.role AS changed_by_role FROM profile_history h
    JOIN users u ON u.id = h.changed_by
    WHERE h.user_id = ${userId}
    ORDER BY h.created_at DESC, h.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`) as HistoryRow[];
  return { count: toInt(total?.n ?? 0), results: rows.map(toChange) };
}

export async function deleteProfile(tx: SQL, userId: string) {
  await tx`DELETE FROM profile_history WHERE user_id = ${userId}`;
  await tx`DELETE FROM profiles WHERE user_id = ${userId}`;
}
