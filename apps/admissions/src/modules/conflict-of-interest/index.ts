import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import { Conflict, ConflictBody } from "./model.ts";
import { type ConflictDeps, declareConflict } from "./service.ts";

type Deps = ConflictDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];

/** A staff member steps away from an application they cannot judge fairly. */
export const conflictOfInterest = (deps: Deps) =>
  new Elysia({
    name: "conflict-of-interest",
    prefix: "/api/v1/applications/:id/conflict-of-interest",
  })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/",
      ({ actor, clientIp, params, body }) =>
        declareConflict(deps, originOf(actor, clientIp), params.id, body.reason),
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ConflictBody),
        response: { 200: Conflict, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Declare a conflict of interest: removes you from the application for good",
          security: writeSecurity,
        },
      },
    );
