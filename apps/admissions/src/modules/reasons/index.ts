import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import {
  Reason,
  ReasonCreate,
  ReasonList,
  ReasonParams,
  ReasonQuery,
  ReasonUpdate,
} from "./model.ts";
import { createReason, listReasons, type ReasonsDeps, updateReason } from "./service.ts";

type Deps = ReasonsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["decisions"];

/** The reasons list: read by everyone signed in (applicants pick from it), kept by admins. */
export const reasons = (deps: Deps) =>
  new Elysia({ name: "reasons", prefix: "/api/v1/reasons" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ actor, query }) => listReasons(deps, actor, query), {
      auth: true,
      query: ReasonQuery,
      response: { 200: ReasonList },
      detail: {
        tags,
        summary: "The reasons to pick for a rejection, withdrawal or decline (`reasonCode`)",
        description:
          "Active ones by kind and code; admins may list inactive ones (`active=false`).",
        security: readSecurity,
      },
    })
    .post(
      "/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return createReason(deps, originOf(actor, clientIp), body);
      },
      {
        auth: ["admin"],
        ...jsonBody(ReasonCreate),
        response: { 201: Reason, ...problems("FORBIDDEN", "REASON_CODE_TAKEN") },
        detail: {
          tags,
          summary: "Add a reason (admins); 409 REASON_CODE_TAKEN for a code of that kind in use",
          security: writeSecurity,
        },
      },
    )
    .patch(
      "/:kind/:code/",
      ({ actor, clientIp, params, body }) =>
        updateReason(deps, originOf(actor, clientIp), params, body),
      {
        auth: ["admin"],
        params: ReasonParams,
        ...jsonBody(ReasonUpdate),
        response: { 200: Reason, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Relabel or (de)activate a reason (admins); codes are never deleted",
          security: writeSecurity,
        },
      },
    );
