import { Problem } from "@platform/contracts/problem";

/** Error responses of a route, for the reference: every error is one problem+json shape. */
export function problemResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, Problem])) as {
    [K in S[number]]: typeof Problem;
  };
}

type SecurityRequirement = Record<string, string[]>;

/** One error response written out by hand, for routes the generator cannot describe. */
export const problemResponse = (description: string) => ({
  description,
  // A TypeBox schema is JSON Schema; the round trip drops TypeBox's own symbol keys.
  content: {
    "application/problem+json": { schema: JSON.parse(JSON.stringify(Problem)) as object },
  },
});

/** Either credential alone authenticates (spec §5). */
export const readSecurity: SecurityRequirement[] = [{ bearerAuth: [] }, { cookieAuth: [] }];
/** Unsafe methods: the cookie needs the CSRF header beside it. */
export const writeSecurity: SecurityRequirement[] = [
  { bearerAuth: [] },
  { cookieAuth: [], csrfToken: [] },
];

export const securitySchemes = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Access token from /api/v1/auth/login/ or /api/v1/auth/refresh/ (15 minutes)",
  },
  cookieAuth: {
    type: "apiKey",
    in: "cookie",
    name: "__Host-admissions_session",
    description: "Session cookie set by /api/v1/auth/login/ (HttpOnly; Secure; SameSite=Lax)",
  },
  csrfToken: {
    type: "apiKey",
    in: "header",
    name: "X-CSRF-Token",
    description: "The csrfToken returned by login; required beside the cookie on unsafe methods",
  },
} as const;

/**
 * A JSON request body. The platform parses JSON itself (a function parser the reference cannot
 * see), so routes also name the `json` parser, which is what lists the body in the reference.
 */
export const jsonBody = <const T>(schema: T) => ({ body: schema, parse: "json" as const });
