import type { JsonSchema } from "./json-schema.ts";

/** Every response header the platform's references declare, once, in `components.headers`. */
export const HEADER_COMPONENTS: Record<string, { description: string; schema: JsonSchema }> = {
  "X-Request-Id": {
    description:
      "The request's id: the client's own X-Request-Id when it sent a sane one (1–128 of `A-Za-z0-9_.:-`), else a new UUIDv7. Every log line of the request carries it.",
    schema: { type: "string", maxLength: 128 },
  },
  "RateLimit-Policy": {
    description:
      'The route\'s quota (IETF RateLimit header fields): `"<policy>";q=<requests>;w=<window seconds>`.',
    schema: { type: "string", examples: ['"register";q=10;w=3600'] },
  },
  RateLimit: {
    description:
      'What is left of the quota: `"<policy>";r=<remaining>;t=<seconds until the window resets>`.',
    schema: { type: "string", examples: ['"register";r=9;t=3600'] },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 1 },
  },
  ETag: {
    description:
      'The resource\'s version as a strong ETag (e.g. `"3"`); send it back in If-Match so a change cannot overwrite one you have not seen.',
    schema: { type: "string", examples: ['"3"'] },
  },
  Location: {
    description: "The path of the resource the request created.",
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this answer repeats the one a request with the same Idempotency-Key and body already had.",
    schema: { type: "string", enum: ["true"] },
  },
  "Set-Cookie": {
    description:
      "The session cookie `__Host-admissions_session` (HttpOnly; Secure; SameSite=Lax; Path=/), set at login and cleared at logout.",
    schema: { type: "string" },
  },
};

/** Statuses whose answers may carry Retry-After: rate limits and throttles, a 503 to retry. */
export const RETRY_AFTER_STATUSES = new Set(["429", "503"]);

/** A rate-limited operation answers every request with its quota, refused or not. */
export const RATE_LIMIT_CODE = "RATE_LIMITED";

export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
