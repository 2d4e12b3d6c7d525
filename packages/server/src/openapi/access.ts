import { RATE_LIMIT_EXTENSION } from "../http/rate-limit-macro.ts";
import { isObject } from "./json-schema.ts";

/** How the platform's security schemes read in a sentence. */
const SCHEME_WORDS: Record<string, string> = {
  bearerAuth: "a bearer access token",
  cookieAuth: "the session cookie",
  csrfToken: "the `X-CSRF-Token` header",
};

const words = (option: Record<string, unknown>) =>
  Object.keys(option)
    .map((name) => SCHEME_WORDS[name] ?? `\`${name}\``)
    .join(" with ");

/**
 * What an operation without a description of its own is given: who may call it (its `security`)
 * and, when it has one, its rate limit, in words. Both are already in the document as data; a
 * reader of a reference page or a generated client's comments sees them here at once.
 */
export function accessDescription(operation: Record<string, unknown>): string {
  const security = Array.isArray(operation.security) ? operation.security.filter(isObject) : [];
  const named = security.filter((option) => Object.keys(option).length > 0);
  const who =
    named.length === 0
      ? "Public: no credentials needed."
      : security.length > named.length
        ? `Credentials optional (${named.map(words).join(", or ")}); a signed-in caller may be answered more.`
        : `Signed in: ${named.map(words).join(", or ")}.`;
  const limit = operation[RATE_LIMIT_EXTENSION];
  if (!isObject(limit)) return who;
  const per = limit.key === "user" ? "account" : "client address";
  return `${who} At most ${limit.limit} requests per ${limit.windowSeconds} s per ${per} (policy \`${limit.policy}\`); past it, 429 \`RATE_LIMITED\` with \`Retry-After\`.`;
}
