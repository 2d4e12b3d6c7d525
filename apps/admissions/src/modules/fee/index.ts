import { Elysia } from "elysia";
import { problems, readSecurity } from "../../lib/openapi.ts";
import { ApplicationParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { FeeSummary } from "./model.ts";
import { type FeeDeps, getFee } from "./service.ts";

const tags = ["payments"];

/** Whether an application's fee is paid, waived or due. */
export const fee = (deps: FeeDeps & { guard: AuthGuard }) =>
  new Elysia({ name: "fee", prefix: "/api/v1/applications/:id/fee" })
    .use(deps.guard)
    .get("/", ({ actor, params }) => getFee(deps, actor, params.id), {
      auth: true,
      params: ApplicationParams,
      response: { 200: FeeSummary, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "The fee and whether it is paid, waived or due",
        security: readSecurity,
      },
    });
