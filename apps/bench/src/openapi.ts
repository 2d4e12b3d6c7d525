import * as contracts from "@platform/contracts/benchmark";
import { problemCatalog } from "@platform/server";
import { openApiDocument, type ServerOptions } from "@platform/server/openapi";
import packageJson from "../package.json";
import { BENCH_PROBLEMS } from "./modules/benchmark/model.ts";

/** Where the app serves its OpenAPI document (the gateway merges it into the site's). */
export const OPENAPI_PATH = "/openapi.json";

export const openApi = (servers: ServerOptions) =>
  openApiDocument({
    ...servers,
    // Reached through the gateway, which also answers 502, 504 and 413 (docs/api.md).
    behindGateway: true,
    path: OPENAPI_PATH,
    info: {
      title: "Bench API",
      version: packageJson.version,
      description:
        "A fixed 10,000-iteration micro-benchmark (json, array, string or crypto), one run at a time in a fresh worker, rate limited per client.",
    },
    tags: [
      { name: "benchmark", description: "Running a benchmark" },
      { name: "health", description: "Probes" },
    ],
    models: { contracts },
    problems: { ...problemCatalog, ...BENCH_PROBLEMS },
  });
