import { peerAddressOf, problemCatalog } from "@platform/server";
import {
  documentOf,
  json,
  type OpenApiDocument,
  referencePages,
  type ServerOptions,
  withServer,
} from "@platform/server/openapi";
import { Elysia } from "elysia";
import * as balancer from "../balancer/model.ts";
import type { Pool } from "../balancer/service.ts";
import * as health from "../health/model.ts";
import { DOCUMENT_TTL_MS, OPENAPI_PATH, REFERENCE_ASSETS, REFERENCE_PATH } from "./model.ts";
import { siteDocument } from "./service.ts";

export type ReferenceDeps = {
  pools: readonly Pool[];
  version: string;
  /** Whom to believe about the address the caller used (the document's `servers`). */
  servers: ServerOptions;
};

/**
 * The whole site's API reference: one OpenAPI document merging every app's own (each app serves
 * it; the gateway asks them) at /api/openapi.json, and one human reference page at /api/docs/.
 * A complete document is kept a minute; one with an app missing is not kept.
 */
export const reference = ({ pools, version, servers }: ReferenceDeps) => {
  const app = new Elysia({ name: "reference" });
  const own = documentOf(app, {
    info: { title: "Gateway", version },
    // Its own probes are answered here, not forwarded.
    behindGateway: false,
    tags: [{ name: "gateway", description: "The gateway's own probes" }],
    models: { balancer, health },
    problems: { ...problemCatalog, UPSTREAM_UNHEALTHY: health.UPSTREAM_UNHEALTHY },
  });
  let cached: { document: OpenApiDocument; until: number } | undefined;
  const current = async () => {
    if (cached && cached.until > Date.now()) return cached.document;
    const { document, missing } = await siteDocument(own(), pools);
    cached = missing.length === 0 ? { document, until: Date.now() + DOCUMENT_TTL_MS } : undefined;
    return document;
  };
  return app
    .get(
      OPENAPI_PATH,
      async ({ request, server }) =>
        json(withServer(await current(), request, peerAddressOf(request, server), servers)),
      { detail: { hide: true } },
    )
    .use(
      referencePages({
        title: "Admissions platform API reference",
        specUrl: OPENAPI_PATH,
        assets: REFERENCE_ASSETS,
        pages: { [REFERENCE_PATH]: "list" },
      }),
    );
};
