import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import type { Db } from "../../db/client.ts";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import { Rubric, RubricBody } from "./model.ts";
import { getRubric, setRubric } from "./service.ts";

type Deps = { db: Db; now: () => number; guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["review"];

/** A program's rubric: what reviewers score and how each criterion weighs. */
export const rubric = (deps: Deps) =>
  new Elysia({ name: "rubric", prefix: "/api/v1/staff/programs/:id/rubric" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ params }) => getRubric(deps.db, params.id), {
      auth: STAFF,
      params: IdParams,
      response: { 200: Rubric, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: { tags, summary: "A program's rubric (staff)", security: readSecurity },
    })
    .put(
      "/",
      ({ actor, clientIp, params, body }) =>
        setRubric(deps.db, originOf(actor, clientIp), params.id, body, deps.now()),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(RubricBody),
        response: { 200: Rubric, ...problems("FORBIDDEN", "NOT_FOUND", "RUBRIC_IN_USE") },
        detail: {
          tags,
          summary: "Set a program's rubric (admins): weighted criteria on one scale",
          description: "409 RUBRIC_IN_USE once an application of the program has been scored.",
          security: writeSecurity,
        },
      },
    );
