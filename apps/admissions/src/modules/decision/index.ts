import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, withHeaders, writeSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { ApplicationsDeps } from "../applications/service.ts";
import { transition } from "../applications/service.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { Application } from "../workflow/model.ts";
import { decisionOf, etagOf, originOf, preconditionsOf } from "../workflow/service.ts";
import { DecisionBody } from "./model.ts";
import { STATUS_OF } from "./service.ts";

type Deps = { applications: ApplicationsDeps; guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["decisions"];

/** Admins decide an application: offer, conditional offer, waitlist or reject. */
export const decision = (deps: Deps) =>
  new Elysia({ name: "decision", prefix: "/api/v1/applications/:id/decision" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/",
      async ({ actor, clientIp, params, body, headers, set }) => {
        const application = await transition(
          deps.applications,
          originOf(actor, clientIp),
          params.id,
          {
            to: STATUS_OF[body.decision],
            reason: body.reason ?? null,
            reasonCode: body.reasonCode ?? null,
            preconditions: preconditionsOf(headers["if-match"] ?? null, body.version),
            decision: decisionOf(body),
            via: "decision",
          },
        );
        set.headers.etag = etagOf(application.version);
        return application;
      },
      {
        auth: ["admin"],
        params: ApplicationParams,
        ...jsonBody(DecisionBody),
        response: {
          200: withHeaders(Application, "ETag"),
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "BAD_REQUEST",
            "ILLEGAL_TRANSITION",
            "TRANSITION_FORBIDDEN",
            "VERSION_CONFLICT",
            "PRECONDITION_FAILED",
            "NO_SEATS_AVAILABLE",
          ),
        },
        detail: {
          tags,
          summary: "Decide (admins): offer, conditional offer, waitlist or reject",
          description:
            "Only from the statuses the lifecycle table allows (409 ILLEGAL_TRANSITION). Offers hold one of the intake's seats (409 NO_SEATS_AVAILABLE when none is free) and carry a response deadline (`respondBy`, default from configuration); conditional offers list their `conditions`; the waitlist takes an optional `waitlistPosition`. The applicant is emailed.",
          security: writeSecurity,
        },
      },
    );
