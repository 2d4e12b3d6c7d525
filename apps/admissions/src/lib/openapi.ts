import { problemDeclarations } from "@platform/server/openapi";
import { admissionsProblems } from "../problems.ts";

export { withHeaders } from "@platform/server/openapi";

/**
 * A route's error responses from the codes it answers with, generic or admissions' own:
 * `response: { 200: Program, ...problems("NOT_FOUND", "PROGRAM_CODE_TAKEN") }`. What the route's
 * options imply is added by the document builder (modules/api): a JSON body's 400/413/415/422,
 * credentials' 401/403 (from `detail.security`), a backing service's 503.
 */
export const problems = problemDeclarations(admissionsProblems);

type SecurityRequirement = Record<string, string[]>;

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

/**
 * A 204's success response, listed by hand in `detail.responses` (it has no body schema for the
 * document builder to read); its error responses still come from `problems(...)`.
 */
export const noContent = (description: string) => ({ 204: { description } });
