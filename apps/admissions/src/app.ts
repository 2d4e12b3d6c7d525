import { platform } from "@platform/server";
import { Elysia } from "elysia";
import packageJson from "../package.json";
import { accountsArea, applicationsArea, offersArea, reviewArea, staffArea } from "./areas.ts";
import { api } from "./modules/api/index.ts";
import { probes } from "./modules/health/index.ts";
import { MODELS } from "./openapi-models.ts";
import { type AppDeps, type Collaborators, collaborators } from "./wiring.ts";

export type { AppDeps };

/**
 * The largest JSON body is an application form: a 20,000-character statement is up to 80 KB
 * of UTF-8. Documents come as multipart and have their own limit (DOCUMENT_LIMITS).
 */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The admissions API: the platform's plumbing (problem+json, request ids, body limits,
 * metrics), the API's own description and probes, then each area of the app. `deps` is every
 * setting (config.ts's `AppSettings`; tests and benchmarks spread `DEFAULT_SETTINGS` with their
 * own) and the runtime; `built`, the collaborators, when the caller made them already
 * (index.ts shares them with the background pass).
 */
export function createApp(deps: AppDeps, built: Collaborators = collaborators(deps)) {
  return new Elysia()
    .use(
      platform({
        service: "admissions",
        logger: deps.logger,
        maxJsonBytes: MAX_BODY_BYTES,
        metrics: deps.metrics,
      }),
    )
    .use(api(packageJson.version, MODELS, deps))
    .use(probes({ db: deps.db, store: deps.store }))
    .use(accountsArea(deps, built))
    .use(applicationsArea(deps, built))
    .use(offersArea(deps, built))
    .use(reviewArea(deps, built))
    .use(staffArea(deps, built));
}

export type App = ReturnType<typeof createApp>;
