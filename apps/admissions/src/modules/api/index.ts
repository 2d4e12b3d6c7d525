import { problemCatalog } from "@platform/server";
import {
  type Operation,
  openApiDocument,
  type RouteInfo,
  referencePages,
  type ServerOptions,
} from "@platform/server/openapi";
import { Elysia } from "elysia";
import { securitySchemes } from "../../lib/openapi.ts";
import { admissionsProblems } from "../../problems.ts";

const PREFIX = "/api/v1";
export const SCHEMA_PATH = `${PREFIX}/schema/`;

const description = `Admissions platform API: accounts and sign-in, the program catalog, applications,
documents and payments, and the staff workflows (review, decisions, waitlist, audit log).

Authentication: log in at \`POST /api/v1/auth/login/\` for an access token (send it as
\`Authorization: Bearer <token>\`) and a session cookie; either alone authenticates. Requests that
rely on the cookie alone and change something (POST, PUT, PATCH, DELETE) must also send the
\`X-CSRF-Token\` header with the \`csrfToken\` login returned.

Errors are RFC 9457 \`application/problem+json\` with a stable machine \`code\`; each operation
lists the codes it answers with. Lists are paginated as \`{ count, next, previous, results }\`
with \`?limit=&offset=\`.`;

const tags = [
  { name: "auth", description: "Registration, sign-in, tokens and sessions" },
  { name: "sessions", description: "My sign-ins: list them, end one, end every other" },
  { name: "account", description: "My email address and password: verification, changes, resets" },
  {
    name: "mfa",
    description: "Two-factor authentication for staff: an authenticator app, recovery codes",
  },
  { name: "profile", description: "The applicant's personal details and their change history" },
  {
    name: "data-rights",
    description: "Data export and erasure requests (GDPR articles 15, 17, 20)",
  },
  { name: "catalog", description: "Programs and their intakes" },
  { name: "applications", description: "Applications and their lifecycle" },
  { name: "documents", description: "Documents attached to applications" },
  { name: "payments", description: "Application fees, refunds and waivers" },
  { name: "review", description: "Rubrics, reviewer assignments, reviews" },
  { name: "decisions", description: "Offers, the waitlist and seats per intake" },
  { name: "interviews", description: "Interview slots, invitations and the panel's scores" },
  {
    name: "references",
    description: "Referees named by applicants, and the referee's emailed link",
  },
  { name: "staff", description: "Staff accounts, bulk changes, export, stats, audit" },
  { name: "integrations", description: "The change feed and signed outgoing webhooks" },
  {
    name: "signed documents",
    description: "Signed PDF offer letters and receipts, their keys and checks",
  },
  { name: "health", description: "Probes" },
];

/**
 * What an operation's credentials imply (auth/guard.ts): with the bearer scheme required, no or
 * a bad credential is a 401; the cookie on an unsafe method without its CSRF token is a 403. On
 * public routes that read credentials (`{}` among the options) only a bad bearer token is refused.
 * Every API route reads the database: while it is down, a 503 to retry.
 */
function impliedProblems(route: RouteInfo, operation: Operation): string[] {
  const codes: string[] = [];
  const security = operation.security ?? [];
  if (security.some((option) => "bearerAuth" in option)) {
    const optional = security.some((option) => Object.keys(option).length === 0);
    codes.push(
      ...(optional ? ["INVALID_TOKEN"] : ["UNAUTHORIZED", "INVALID_TOKEN", "INVALID_SESSION"]),
    );
  }
  if (security.some((option) => "csrfToken" in option)) {
    codes.push("CSRF_TOKEN_MISSING", "CSRF_TOKEN_INVALID");
  }
  if (route.path.startsWith(`${PREFIX}/`)) codes.push("SERVICE_UNAVAILABLE");
  return codes;
}

/**
 * The API describing itself: the OpenAPI 3.1 document at /api/v1/schema/, and a human reference
 * (Swagger UI, served from the installed package) at /api/v1/docs/, with every operation opened
 * at /api/v1/redoc/ (the long form, at the address the Redoc page had). The folder is named for
 * the URL segment the three share: no narrower one does.
 */
export const api = (
  version: string,
  models: Record<string, Record<string, unknown>>,
  { trustedProxies, publicUrl }: ServerOptions,
) =>
  new Elysia({ name: "api" })
    .use(
      openApiDocument({
        // Reached through the gateway, which also answers 502, 504 and 413 (docs/api.md).
        behindGateway: true,
        trustedProxies,
        publicUrl,
        path: SCHEMA_PATH,
        info: { title: "Admissions API", version, description },
        tags,
        securitySchemes,
        models,
        problems: { ...problemCatalog, ...admissionsProblems },
        impliedProblems,
      }),
    )
    .use(
      referencePages({
        title: "Admissions API reference",
        specUrl: SCHEMA_PATH,
        assets: `${PREFIX}/docs/assets/`,
        pages: { [`${PREFIX}/docs/`]: "list", [`${PREFIX}/redoc/`]: "full" },
      }),
    );
