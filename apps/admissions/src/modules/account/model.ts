import { t } from "elysia";
import { Timestamp } from "../../lib/schema.ts";
import { Email, Password } from "../users/model.ts";

/** A token from an emailed link (`?token=` of the portal page); 43 characters as issued. */
const LinkToken = t.String({
  minLength: 1,
  maxLength: 128,
  description: "The `token` parameter of the emailed link",
  examples: ["n6cXy0cQGQeVQ2m1mQ3J4Y1nE5hQq0f3J2m9u0yJ8mA"],
});

export const PasswordResetRequest = t.Object(
  { email: t.String({ minLength: 1, maxLength: 254 }) },
  { examples: [{ email: "ada@example.org" }] },
);
export type PasswordResetRequest = typeof PasswordResetRequest.static;

export const PasswordResetConfirm = t.Object(
  { token: LinkToken, newPassword: Password },
  {
    examples: [
      { token: "n6cXy0cQGQeVQ2m1mQ3J4Y1nE5hQq0f3J2m9u0yJ8mA", newPassword: "a-new-long-password" },
    ],
  },
);
export type PasswordResetConfirm = typeof PasswordResetConfirm.static;

export const PasswordChange = t.Object(
  {
    currentPassword: t.String({ minLength: 1, maxLength: 128 }),
    newPassword: Password,
  },
  {
    examples: [{ currentPassword: "correct-horse-battery", newPassword: "a-new-long-password" }],
  },
);
export type PasswordChange = typeof PasswordChange.static;

export const LinkConfirm = t.Object(
  { token: LinkToken },
  { examples: [{ token: "n6cXy0cQGQeVQ2m1mQ3J4Y1nE5hQq0f3J2m9u0yJ8mA" }] },
);
export type LinkConfirm = typeof LinkConfirm.static;

export const EmailChangeRequest = t.Object(
  {
    newEmail: Email,
    password: t.String({ minLength: 1, maxLength: 128, description: "The current password" }),
  },
  { examples: [{ newEmail: "ada.lovelace@example.net", password: "correct-horse-battery" }] },
);
export type EmailChangeRequest = typeof EmailChangeRequest.static;

export const EmailVerification = t.Object({
  email: Email,
  verified: t.Boolean(),
  verifiedAt: t.Nullable(Timestamp),
});
export type EmailVerification = typeof EmailVerification.static;

// The answer of a request whose outcome arrives by email (registration's too).
export { Accepted } from "../auth/model.ts";
