import { Elysia } from "elysia";
import type { Db } from "../../db/client.ts";
import { problems, readSecurity } from "../../lib/openapi.ts";
import type { AuthGuard } from "../auth/guard.ts";
import {
  Calibration,
  CalibrationQuery,
  ExtraReviews,
  ExtraReviewsQuery,
  Ranking,
  RankingQuery,
} from "./model.ts";
import { getCalibration, getRanking, listExtraReviews } from "./service.ts";

const tags = ["review"];

/** How reviewers score against each other, and what the automatic extra reviews did (admins). */
export const calibration = (deps: { db: Db; guard: AuthGuard }) =>
  new Elysia({ name: "calibration", prefix: "/api/v1/staff/calibration" })
    .use(deps.guard)
    .get("/", ({ query }) => getCalibration(deps.db, query), {
      auth: ["admin"],
      query: CalibrationQuery,
      response: { 200: Calibration, ...problems("FORBIDDEN", "NOT_FOUND", "RUBRIC_MISSING") },
      detail: {
        tags,
        summary: "Each reviewer's mean and spread of weighted totals against the panel (admins)",
        description:
          "Per reviewer in the program (and intake): count, mean and population standard deviation of their weighted totals; the other reviewers' on the same applications; the difference of means. Reviews of a reviewer who declared a conflict since are left out. 409 RUBRIC_MISSING.",
        security: readSecurity,
      },
    })
    .get("/ranking/", ({ query }) => getRanking(deps.db, query), {
      auth: ["admin"],
      query: RankingQuery,
      response: { 200: Ranking, ...problems("FORBIDDEN", "NOT_FOUND", "RUBRIC_MISSING") },
      detail: {
        tags,
        summary: "Reviewed applications ranked by their mean total, raw or normalised (admins)",
        description:
          "`normalised=true`: each total is first rescaled by its reviewer's mean and spread onto the whole panel's (z-score), see docs/admissions.md. Stored scores never change; `rawScore` is always shown.",
        security: readSecurity,
      },
    })
    .get("/extra-reviews/", ({ query }) => listExtraReviews(deps.db, query), {
      auth: ["admin"],
      query: ExtraReviewsQuery,
      response: { 200: ExtraReviews, ...problems("FORBIDDEN") },
      detail: {
        tags,
        summary: "Automatic extra reviews, newest first (the latest 500); flagged ones (admins)",
        security: readSecurity,
      },
    });
