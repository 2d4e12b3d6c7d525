import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { Id, int, Timestamp } from "../../lib/schema.ts";
import { Email, FullName, Password, User } from "../users/model.ts";

export const RegisterBody = t.Object(
  { email: Email, password: Password, fullName: FullName },
  {
    examples: [
      { email: "ada@example.org", password: "correct-horse-battery", fullName: "Ada Lovelace" },
    ],
  },
);
export type RegisterBody = typeof RegisterBody.static;

/** The answer of a request whose outcome arrives by email. */
export const Accepted = t.Object({
  detail: t.String({ examples: ["A verification link has been sent to ada@example.org"] }),
});
export type Accepted = typeof Accepted.static;

export const LoginBody = t.Object(
  {
    email: t.String({ minLength: 1, maxLength: 254 }),
    password: t.String({ minLength: 1, maxLength: 128 }),
    otp: t.Optional(
      t.String({
        pattern: "^[0-9]{6}$",
        description: "Accounts with MFA: the authenticator's current 6-digit code",
      }),
    ),
    recoveryCode: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 32,
        description: "Accounts with MFA, instead of `otp`: one of the recovery codes (works once)",
      }),
    ),
  },
  { examples: [{ email: "ada@example.org", password: "correct-horse-battery" }] },
);
export type LoginBody = typeof LoginBody.static;

export const RefreshBody = t.Object({
  refreshToken: t.String({ minLength: 1, maxLength: 512 }),
});
export type RefreshBody = typeof RefreshBody.static;

export const TokenPair = t.Object({
  accessToken: t.String({ description: "JWT (HS256) for `Authorization: Bearer <token>`" }),
  tokenType: t.Literal("Bearer"),
  expiresIn: int({ description: "Seconds the access token stays valid", examples: [900] }),
  refreshToken: t.String({ description: "Single-use; trade it at /api/v1/auth/refresh/" }),
  refreshExpiresIn: int({
    description: "Seconds until the sign-in ends; refresh never extends it",
  }),
});
export type TokenPair = typeof TokenPair.static;

export const LoginResult = t.Composite(
  [
    TokenPair,
    t.Object({
      csrfToken: t.String({
        description: "Send as X-CSRF-Token on unsafe requests authenticated by the cookie alone",
      }),
      user: User,
    }),
  ],
  { description: "Also sets the session cookie (HttpOnly; Secure; SameSite=Lax; Path=/)" },
);
export type LoginResult = typeof LoginResult.static;

export const CsrfToken = t.Object({ csrfToken: t.String() });

// A user's own sign-ins.

export const Session = t.Object({
  id: Id,
  current: t.Boolean({ description: "The sign-in this request was made with" }),
  device: t.Nullable(
    t.String({
      description: "Browser and system read coarsely from the User-Agent at sign-in",
      examples: ["Firefox on Linux"],
    }),
  ),
  ip: t.Nullable(t.String({ description: "The client's address at sign-in" })),
  createdAt: Timestamp,
  lastUsedAt: t.String({
    format: "date-time",
    description: "Last request or refresh, to the minute",
  }),
  expiresAt: Timestamp,
});
export type Session = typeof Session.static;

export const SessionQuery = t.Object(PageQuery);
export type SessionQuery = typeof SessionQuery.static;

export const SessionPage = Paginated(Session, "My sign-ins, most recently used first");

export const SessionsEnded = t.Object({
  ended: int({ minimum: 0, description: "Sign-ins ended (every one but the caller's)" }),
});
