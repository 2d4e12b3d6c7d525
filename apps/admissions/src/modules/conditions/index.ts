import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import { ConditionList, ConditionParams, ConditionUpdate } from "./model.ts";
import { type ConditionsDeps, listConditions, updateCondition } from "./service.ts";

type Deps = ConditionsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["decisions"];

/** A conditional offer's conditions: read by the applicant and staff, settled by admins. */
export const conditions = (deps: Deps) =>
  new Elysia({ name: "conditions", prefix: "/api/v1/applications/:id/conditions" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ actor, params }) => listConditions(deps, actor, params.id), {
      auth: true,
      params: ApplicationParams,
      response: { 200: ConditionList, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "The conditions of the application's offer (its applicant, staff)",
        description:
          "Each condition with its status, due date, evidence and when it was settled; `verifiedBy` is shown to staff only. Empty for an application that never had a conditional offer.",
        security: readSecurity,
      },
    })
    .patch(
      "/:conditionId/",
      ({ actor, clientIp, params, body }) =>
        updateCondition(deps, originOf(actor, clientIp), params.id, params.conditionId, body),
      {
        auth: ["admin"],
        params: ConditionParams,
        ...jsonBody(ConditionUpdate),
        response: {
          200: ConditionList,
          ...problems("FORBIDDEN", "NOT_FOUND", "CONDITIONS_CLOSED", "VERSION_CONFLICT"),
        },
        detail: {
          tags,
          summary: "Settle a condition (admins): met, not met, waived, or back to pending",
          description:
            "With an optional `note` and `evidenceDocumentId` (a document of the same application, else 422). `not_met` moves the application to conditions_not_met; the last condition met or waived makes the offer unconditional (an unanswered conditional offer becomes `offered`; an accepted one is confirmed, `unconditionalAt`), and the applicant is emailed. 409 CONDITIONS_CLOSED once the offer is settled or no longer stands.",
          security: writeSecurity,
        },
      },
    );
