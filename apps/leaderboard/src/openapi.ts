import * as contracts from "@platform/contracts/leaderboard";
import { problemCatalog } from "@platform/server";
import { openApiDocument } from "@platform/server/openapi";
import packageJson from "../package.json";

/** Where the app serves its OpenAPI document (the gateway merges it into the site's). */
export const OPENAPI_PATH = "/openapi.json";

export const openApi = () =>
  openApiDocument({
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
