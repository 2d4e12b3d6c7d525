import * as contracts from "@platform/contracts/leaderboard";
import { problemCatalog } from "@platform/server";
import { openApiDocument, type ServerOptions } from "@platform/server/openapi";
import packageJson from "../package.json";

/** Where the app serves its OpenAPI document (the gateway merges it into the site's). */
export const OPENAPI_PATH = "/openapi.json";

export const openApi = (servers: ServerOptions) =>
  openApiDocument({
    ...servers,
    // Reached through the gateway, which also answers 502, 504 and 413 (docs/api.md).
    behindGateway: true,
    path: OPENAPI_PATH,
    info: {
      title: "Leaderboard API",
      version: packageJson.version,
      description: "Scores of the browser game: the top 10, and submitting a score.",
    },
    tags: [
      { name: "leaderboard", description: "The top 10 and score submissions" },
      { name: "health", description: "Probes" },
    ],
    models: { contracts },
    problems: problemCatalog,
    // Every API route reads or writes the shared store: without it, a 503 to retry.
    impliedProblems: (route) => (route.path.startsWith("/api/") ? ["SERVICE_UNAVAILABLE"] : []),
  });
