import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import { FeeSummary, ReasonBody } from "./model.ts";
import { type FeeDeps, waiveFee } from "./service.ts";

const tags = ["payments"];

/** Staff waive an application's fee, with a reason. */
export const feeWaiver = (deps: FeeDeps & { guard: AuthGuard; trustedProxies: TrustedProxies }) =>
  new Elysia({ name: "fee-waiver", prefix: "/api/v1/applications/:id/fee-waiver" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return waiveFee(deps, actor, params.id, body.reason, originOf(actor, clientIp).clientIp);
      },
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ReasonBody),
        response: {
          201: FeeSummary,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "FEE_ALREADY_PAID",
            "FEE_WAIVED",
            "FEE_NOT_REQUIRED",
            "PAYMENT_PENDING",
          ),
        },
        detail: {
          tags,
          summary: "Waive the fee, with a reason (staff)",
          description: "409 FEE_ALREADY_PAID, FEE_WAIVED, FEE_NOT_REQUIRED or PAYMENT_PENDING.",
          security: writeSecurity,
        },
      },
    );
