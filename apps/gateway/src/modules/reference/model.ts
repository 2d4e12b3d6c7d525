/** The site's one OpenAPI document: every service's paths, as the gateway routes them. */
export const OPENAPI_PATH = "/api/openapi.json";
/** The human reference of that document, and where its page's scripts are served from. */
export const REFERENCE_PATH = "/api/docs/";
export const REFERENCE_ASSETS = "/api/docs/assets/";

/** How long a complete document is kept before the apps are asked again. */
export const DOCUMENT_TTL_MS = 60_000;
/** How long one app gets to hand over its document. */
export const FETCH_TIMEOUT_MS = 5_000;
