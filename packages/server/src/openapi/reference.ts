import { fileURLToPath } from "node:url";
import { Elysia, t } from "elysia";
import type { TrustedProxies } from "../http/client-ip.ts";
import { callerOrigin } from "../http/origin.ts";
import { peerAddressOf } from "../http/peer.ts";
import { HttpProblem } from "../http/problem.ts";
import { buildDocument, type DocumentOptions, type OpenApiDocument } from "./document.ts";
import type { RouteInfo } from "./request.ts";

/** Where a document says it is served: whom to believe about the caller's address. */
export type ServerOptions = {
  /** Proxies whose X-Forwarded-Proto and X-Forwarded-Host are believed. */
  trustedProxies: TrustedProxies;
  /** The site's public address (PUBLIC_URL), over anything a request says. */
  publicUrl?: string;
};

/**
 * The document as served: `servers` is the origin the caller used (http/origin.ts), so a
 * reference page's "Try it out" calls the address its reader reached, not an internal port.
 */
export const withServer = (
  document: OpenApiDocument,
  request: Request,
  peer: string | undefined,
  options: ServerOptions,
): OpenApiDocument => ({
  ...document,
  servers: [{ url: callerOrigin(request, peer, options.trustedProxies, options.publicUrl) }],
});

export const json = (body: unknown) =>
  new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json; charset=utf-8" },
  });

/**
 * The document of the app `plugin` is used in, built from the app's routes on first use (and
 * again only if routes were added since): a plugin instance sees the whole app's routes.
 */
export function documentOf(plugin: object, options: DocumentOptions): () => OpenApiDocument {
  let built: { routes: number; document: OpenApiDocument } | undefined;
  return () => {
    const routes = (plugin as { getGlobalRoutes(): RouteInfo[] }).getGlobalRoutes();
    if (built?.routes !== routes.length) {
      built = { routes: routes.length, document: buildDocument(routes, options) };
    }
    return built.document;
  };
}

/** The app's OpenAPI document at `path`. */
export function openApiDocument(options: DocumentOptions & ServerOptions & { path: string }) {
  const app = new Elysia({ name: "openapi-document", seed: options.path });
  const current = documentOf(app, options);
  return app.get(
    options.path,
    ({ request, server }) =>
      json(withServer(current(), request, peerAddressOf(request, server), options)),
    { detail: { hide: true } },
  );
}

/** Swagger UI, from the pinned swagger-ui-dist package: no CDN, works offline. */
const SWAGGER_UI = {
  "swagger-ui-bundle.js": "application/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
} as const;
const isAsset = (name: string): name is keyof typeof SWAGGER_UI => Object.hasOwn(SWAGGER_UI, name);

/** One of Swagger UI's files, read from the package; a day in caches (the version is pinned). */
function swaggerUiAsset(name: string): Response {
  if (!isAsset(name)) throw new HttpProblem("NOT_FOUND", { detail: `No asset ${name}` });
  const file = Bun.file(fileURLToPath(import.meta.resolve(`swagger-ui-dist/${name}`)));
  return new Response(file, {
    headers: { "content-type": SWAGGER_UI[name], "cache-control": "public, max-age=86400" },
  });
}

/** Starts Swagger UI on the page's `data-spec-url`; a file of its own, as CSP wants. */
const INIT_SCRIPT = `window.addEventListener("load", () => {
  const root = document.getElementById("reference");
  window.ui = SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    deepLinking: true,
    docExpansion: root.dataset.expand || "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    // The default sends the document to an online validator for a badge: not offline.
    validatorUrl: null,
  });
});
`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c,
  );

// Swagger UI styles elements inline and draws icons as data: images.
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'";

/**
 * A human reference page for the document at `specUrl`: Swagger UI served from the installed
 * package under `assets` (a path ending in "/"), never from a CDN. `pages` maps each page path to
 * how it opens (`list`: operations folded; `full`: every operation expanded, the long form).
 */
export function referencePages(options: {
  title: string;
  specUrl: string;
  assets: string;
  pages: Record<string, "list" | "full">;
}) {
  const page = (expand: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(options.title)}</title>
    <link rel="stylesheet" href="${options.assets}swagger-ui.css" />
  </head>
  <body>
    <div id="reference" data-spec-url="${escapeHtml(options.specUrl)}" data-expand="${expand}"></div>
    <script src="${options.assets}swagger-ui-bundle.js"></script>
    <script src="${options.assets}init.js"></script>
  </body>
</html>`;
  const hidden = { detail: { hide: true } };
  let app = new Elysia({ name: "reference-pages", seed: options.assets })
    .get(
      `${options.assets}init.js`,
      () =>
        new Response(INIT_SCRIPT, {
          headers: { "content-type": "application/javascript; charset=utf-8" },
        }),
      hidden,
    )
    .get(`${options.assets}:file`, ({ params }) => swaggerUiAsset(params.file), {
      ...hidden,
      params: t.Object({ file: t.String() }),
    });
  for (const [path, expand] of Object.entries(options.pages)) {
    const html = page(expand);
    app = app.get(
      path,
      () =>
        new Response(html, {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": PAGE_CSP,
          },
        }),
      hidden,
    );
  }
  return app;
}
