import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation, toBool, toIso } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { problem } from "../../problems.ts";
import type { PasswordCost, Role, User } from "./model.ts";

export type UserRecord = User & { passwordHash: string };

export type NewUser = { email: string; fullName: string; password: string; role: Role };

/** Emails compare case-insensitively; they are stored trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Gmail's two domains: one mailbox each, whose local part ignores dots. */
const GMAIL = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox an address reaches, as far as the platform can tell, to know two addresses for
 * one person (a referee who is the applicant; one referee named twice). The address is
 * case-folded whole; a `+tag` is cut from the local part (sub-addressing, RFC 5233: Gmail,
 * Outlook.com, iCloud, Fastmail, Proton and most servers deliver `ada+x@` to `ada@`); and at
 * gmail.com and googlemail.com, which are one service that ignores dots in the local part,
 * the dots go and the domain is gmail.com. Dots elsewhere are kept: on other domains (Google
 * Workspace included) `a.lovelace@` and `alovelace@` can be two people. Only compared, never
 * stored in place of the address given, which is the one mail is sent to.
 */
export function mailboxKey(email: string): string {
  const address = normalizeEmail(email);
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

export const hashPassword = (password: string, cost: PasswordCost): Promise<string> =>
  Bun.password.hash(password, { algorithm: "argon2id", ...cost });

export type UserRow = {
  id: string;
  email: string;
  full_name: string;
  role: Role;
  active: unknown;
  created_at: unknown;
  password_hash: string;
};

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  fullName: row.full_name,
  role: row.role,
  active: toBool(row.active),
  createdAt: toIso(row.created_at),
});

/** Whether the account has proven its email address (a link sent there was opened). */
export async function isEmailVerified(sql: SQL, id: string): Promise<boolean> {
  const [row] = (await sql`SELECT email_verified_at FROM users WHERE id = ${id}`) as {
    email_verified_at: unknown;
  }[];
  return row?.email_verified_at !== null && row?.email_verified_at !== undefined;
}

/**
 * Creates an account. `alongside` runs in the same transaction once the row is in (the audit
 * entry of a staff account an admin created).
 */
export async function createUser(
  db: Db,
  input: NewUser,
  cost: PasswordCost,
  nowMs: number,
  alongside?: (tx: SQL, user: User) => Promise<void>,
): Promise<User> {
  const passwordHash = await hashPassword(input.password, cost);
  const at = isoAt(nowMs);
  const row = {
    id: newId(),
    email: normalizeEmail(input.email),
    full_name: input.fullName.trim(),
    password_hash: passwordHash,
    role: input.role,
    active: true,
    created_at: at,
    updated_at: at,
  };
  try {
    await db.transaction(async (tx) => {
      await tx`INSERT INTO users ${tx(row)}`;
      await alongside?.(tx, toUser(row));
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw problem("EMAIL_TAKEN", { detail: "An account with this email already exists" });
    }
    throw error;
  }
  return toUser(row);
}

/** What registration does once the password is hashed, in the transaction that inserts. */
export type Registration = {
  /** The address was free: the new account. */
  created(tx: SQL, user: User): Promise<void>;
  /** The address has an account: that account, left as it was. */
  taken(tx: SQL, account: UserRecord): Promise<void>;
};

/**
 * An applicant's account, unless the address has one: then nothing is changed and `taken`
 * runs instead of `created`. One transaction either way (an insert that may do nothing, one
 * email written), so the two take about as long; the caller hashes the password before.
 */
export async function registerUser(
  db: Db,
  input: Omit<NewUser, "password" | "role"> & { passwordHash: string },
  nowMs: number,
  then: Registration,
): Promise<void> {
  const at = isoAt(nowMs);
  const row = {
    id: newId(),
    email: normalizeEmail(input.email),
    full_name: input.fullName.trim(),
    password_hash: input.passwordHash,
    role: "applicant" as const,
    active: true,
    created_at: at,
    updated_at: at,
  };
  await db.transaction(async (tx) => {
    const inserted = await tx`INSERT INTO users ${tx(row)} ON CONFLICT (email) DO NOTHING
      RETURNING id`;
    if (inserted.length > 0) return then.created(tx, toUser(row));
    const [existing] = (await tx`SELECT * FROM users WHERE email = ${row.email}`) as UserRow[];
    if (existing)
      await then.taken(tx, { ...toUser(existing), passwordHash: existing.password_hash });
  });
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRecord | null> {
  const [row] = await db.run(
    (sql): Promise<UserRow[]> => sql`SELECT * FROM users WHERE email = ${normalizeEmail(email)}`,
  );
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const [row] = await db.run(
    (sql): Promise<UserRow[]> =>
      sql`SELECT id, email, full_name, role, active, created_at FROM users WHERE id = ${id}`,
  );
  return row ? toUser(row) : null;
}
