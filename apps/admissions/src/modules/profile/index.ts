import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import {
  HistoryQuery,
  Profile,
  ProfileHistoryPage,
  ProfilePatch,
  ProfileReplace,
} from "./model.ts";
import {
  AGE_RANGE,
  getProfile,
  type ProfileDeps,
  patchProfile,
  profileHistory,
  replaceProfile,
} from "./service.ts";

const tags = ["profile"];
const APPLICANTS = ["applicant"] as const;
const rules = `Text is trimmed and may not be blank or hold control characters; \`nationality\` and \`address.country\` are assigned ISO 3166-1 alpha-2 codes; \`dateOfBirth\` is a real past date giving an age of ${AGE_RANGE.min} to ${AGE_RANGE.max}; \`phone\` is E.164. Every problem is listed in \`errors\` (422). Each change is kept in the history and emailed to you (which fields, not their values).`;

/** The applicant's personal details, which each new application is prefilled from. */
export const profile = (deps: ProfileDeps & { guard: AuthGuard }) =>
  new Elysia({ name: "profile", prefix: "/api/v1/profile" })
    .use(deps.guard)
    .get("/", ({ actor }) => getProfile(deps, actor), {
      auth: APPLICANTS,
      response: { 200: Profile, ...problems("FORBIDDEN") },
      detail: { tags, summary: "Your profile (applicants)", security: readSecurity },
    })
    .put("/", ({ actor, body }) => replaceProfile(deps, actor, body), {
      auth: APPLICANTS,
      ...jsonBody(ProfileReplace),
      response: { 200: Profile, ...problems("FORBIDDEN", "VERSION_CONFLICT") },
      detail: {
        tags,
        summary: "Replace your profile: every field, null for one left empty",
        description: rules,
        security: writeSecurity,
      },
    })
    .patch("/", ({ actor, body }) => patchProfile(deps, actor, body), {
      auth: APPLICANTS,
      ...jsonBody(ProfilePatch),
      response: { 200: Profile, ...problems("FORBIDDEN", "VERSION_CONFLICT") },
      detail: {
        tags,
        summary: "Change some fields of your profile",
        description: rules,
        security: writeSecurity,
      },
    })
    .get(
      "/history/",
      ({ actor, query, request }) => profileHistory(deps, actor, pageOf(query), request.url),
      {
        auth: APPLICANTS,
        query: HistoryQuery,
        response: { 200: ProfileHistoryPage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "Every change to your profile: who, when, each field before and after",
          security: readSecurity,
        },
      },
    );
