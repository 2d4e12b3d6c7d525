import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import { ReviewSettings, ReviewSettingsBody } from "./model.ts";
import { getReviewSettings, type ReviewSettingsDeps, setReviewSettings } from "./service.ts";

type Deps = ReviewSettingsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];

/** A program's review settings: blind review and the extra-review threshold (admins). */
export const reviewSettings = (deps: Deps) =>
  new Elysia({ name: "review-settings", prefix: "/api/v1/staff/programs/:id/review-settings" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ params }) => getReviewSettings(deps, params.id), {
      auth: ["admin"],
      params: IdParams,
      response: { 200: ReviewSettings, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: {
        tags,
        summary: "A program's review settings: blind review, disagreement threshold (admins)",
        security: readSecurity,
      },
    })
    .put(
      "/",
      ({ actor, clientIp, params, body }) =>
        setReviewSettings(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(ReviewSettingsBody),
        response: { 200: ReviewSettings, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Set a program's review settings (admins)",
          description:
            "Blind review takes effect at once on every response a reviewer gets about the program's applications. The threshold applies to reviews saved from now on.",
          security: writeSecurity,
        },
      },
    );
