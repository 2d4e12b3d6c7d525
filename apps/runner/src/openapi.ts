import * as contracts from "@platform/contracts/run";
import { problemCatalog } from "@platform/server";
import { openApiDocument, type ServerOptions } from "@platform/server/openapi";
import packageJson from "../package.json";
import * as health from "./modules/health/model.ts";
import { RUNNER_PROBLEMS } from "./modules/run/model.ts";

/** Where the app serves its OpenAPI document (the gateway merges it into the site's). */
export const OPENAPI_PATH = "/openapi.json";

export const openApi = (servers: ServerOptions) =>
  openApiDocument({
    ...servers,
    // Reached through the gateway, which also answers 502, 504 and 413 (docs/api.md).
    behindGateway: true,
    path: OPENAPI_PATH,
    info: {
      title: "Runner API",
      version: packageJson.version,
      description:
        "Runs a TypeScript snippet of at most 1000 characters in a layered sandbox and answers its console output. A program that tries a blocked capability (network, files, processes) is answered 200 with a SecurityError; limits per client are 429s, a full runner a 503 to retry.",
    },
    tags: [
      { name: "run", description: "Running a snippet" },
      { name: "health", description: "Probes" },
    ],
    models: { contracts, health },
    problems: { ...problemCatalog, ...RUNNER_PROBLEMS },
    // The rate limit's counters live in the shared store: without it, a 503 to retry.
    impliedProblems: (route) => (route.path.startsWith("/api/") ? ["SERVICE_UNAVAILABLE"] : []),
  });
