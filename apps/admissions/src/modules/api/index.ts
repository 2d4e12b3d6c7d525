import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { securitySchemes } from "../../lib/openapi.ts";

const PREFIX = "/api/v1";
export const SCHEMA_PATH = `${PREFIX}/schema/`;

const description = `Admissions platform API: accounts and sign-in, the program catalog, applications,
documents and payments, and the staff workflows (review, decisions, waitlist, audit log).

Authentication: log in at \`POST /api/v1/auth/login/\` for an access token (send it as
\`Authorization: Bearer <token>\`) and a session cookie; either alone authenticates. Requests that
rely on the cookie alone and change something (POST, PUT, PATCH, DELETE) must also send the
\`X-CSRF-Token\` header with the \`csrfToken\` login returned.

Errors are RFC 9457 \`application/problem+json\` with a stable machine \`code\`. Lists are
paginated as \`{ count, next, previous, results }\` with \`?limit=&offset=\`.`;

/** Long-form reference: Redoc rendering the same OpenAPI document. */
const REDOC_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Admissions API reference</title>
  </head>
  <body>
    <redoc spec-url="${SCHEMA_PATH}"></redoc>
    <script src="https://cdn.jsdelivr.net/npm/redoc@2.5.0/bundles/redoc.standalone.js"></script>
  </body>
</html>`;

/**
 * The API describing itself, in three references: interactive (Scalar) at /api/v1/docs/,
 * long-form (Redoc) at /api/v1/redoc/, and the OpenAPI 3.1 document both read at
 * /api/v1/schema/. The folder is named for the URL segment the three share: no narrower one does.
 */
export const api = (version: string) =>
  new Elysia({ name: "api", prefix: PREFIX })
    .use(
      openapi({
        path: "/docs/",
        specPath: "/schema/",
        // The plugin hands Scalar a relative URL, which resolves under /api/v1/docs/.
        scalar: { url: SCHEMA_PATH },
        documentation: {
          info: { title: "Admissions API", version, description },
          tags: [
            { name: "auth", description: "Registration, sign-in, tokens and sessions" },
            { name: "catalog", description: "Programs and their intakes" },
            { name: "applications", description: "Applications and their lifecycle" },
            { name: "documents", description: "Documents attached to applications" },
            { name: "payments", description: "Application fees, refunds and waivers" },
            { name: "review", description: "Rubrics, reviewer assignments, reviews" },
            { name: "decisions", description: "Offers, the waitlist and seats per intake" },
            { name: "staff", description: "Staff accounts, bulk changes, export, stats, audit" },
            { name: "health", description: "Probes" },
          ],
          components: { securitySchemes },
        },
      }),
    )
    .get(
      "/redoc/",
      () => new Response(REDOC_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
      { detail: { hide: true } },
    );
