import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  Clashes,
  ClashQuery,
  Interview,
  InterviewList,
  InterviewParams,
  InterviewQuery,
  Invite,
  Note,
  Reschedule,
  ScoreBody,
  SlotCreate,
} from "./model.ts";
import {
  calendarFile,
  cancelInterview,
  confirmInterview,
  createSlot,
  findClashes,
  getInterview,
  type InterviewsDeps,
  inviteToInterview,
  listInterviews,
  requestReschedule,
  rescheduleInterview,
  saveInterviewScore,
} from "./service.ts";

type Deps = InterviewsDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["interviews"];

/** Interview slots, invitations and the panel's scores (docs/admissions.md, "Interviews"). */
export const interviews = (deps: Deps) =>
  new Elysia({ name: "interviews", prefix: "/api/v1/interviews" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", ({ actor, query }) => listInterviews(deps, actor, query), {
      auth: true,
      query: InterviewQuery,
      response: { 200: InterviewList },
      detail: {
        tags,
        summary: "Interviews by start time: staff all (filtered), an applicant their own",
        security: readSecurity,
      },
    })
    .get("/clashes/", ({ query }) => findClashes(deps, query), {
      auth: ["admin"],
      query: ClashQuery,
      response: { 200: Clashes, ...problems("FORBIDDEN") },
      detail: {
        tags,
        summary: "Who of a panel is on another interview at a time, booking nothing (admins)",
        description:
          "The check a new slot or a reschedule makes (409 INTERVIEW_CLASH), asked ahead so a form can warn: each panel member on a live interview overlapping [startsAt, startsAt + durationMinutes), with that interview's times. `exceptId`: the interview being moved.",
        security: readSecurity,
      },
    })
    .post(
      "/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return createSlot(deps, originOf(actor, clientIp), body);
      },
      {
        auth: ["admin"],
        ...jsonBody(SlotCreate),
        response: { 201: Interview, ...problems("FORBIDDEN", "INTERVIEW_CLASH") },
        detail: {
          tags,
          summary: "Open an interview slot: time, place or link, panel (admins)",
          description:
            "`startsAt` in the future; exactly one of `location` and `meetingUrl` (422); the panel active staff accounts (422). 409 INTERVIEW_CLASH (with `clashes`) when a panel member is on another interview overlapping it.",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/:interviewId/calendar/",
      async ({ actor, params }) =>
        new Response(await calendarFile(deps, actor, params.interviewId), {
          headers: {
            "content-type": "text/calendar; charset=utf-8; method=PUBLISH",
            "content-disposition": 'attachment; filename="interview.ics"',
            "cache-control": "private, no-store",
          },
        }),
      {
        auth: true,
        params: InterviewParams,
        response: problems(
          "NOT_FOUND",
          "INTERVIEW_NOT_ALLOWED",
          "INTERVIEW_CLOSED",
          "CONFLICT_OF_INTEREST",
        ),
        detail: {
          tags,
          summary:
            "The interview as a calendar file (.ics) to import (the invited applicant, staff)",
          description:
            "RFC 5545, METHOD:PUBLISH, the same UID and SEQUENCE as the invitation emails' attachment, so a calendar that holds one replaces it. 409 INTERVIEW_NOT_ALLOWED for a slot nobody is invited to, INTERVIEW_CLOSED once cancelled; 403 CONFLICT_OF_INTEREST for staff who declared one. A reviewer of a blind programme gets the event without its attendee (the applicant's name and address).",
          security: readSecurity,
          responses: {
            200: {
              description: "text/calendar, Content-Disposition: attachment",
              content: { "text/calendar": { schema: { type: "string" as const } } },
            },
          },
        },
      },
    )
    .get("/:interviewId/", ({ actor, params }) => getInterview(deps, actor, params.interviewId), {
      auth: true,
      params: InterviewParams,
      response: { 200: Interview, ...problems("NOT_FOUND", "CONFLICT_OF_INTEREST") },
      detail: {
        tags,
        summary: "One interview (staff; the invited applicant without panel and scores)",
        description:
          "403 CONFLICT_OF_INTEREST for staff who declared one with the application (the list leaves those interviews out for them).",
        security: readSecurity,
      },
    })
    .post(
      "/:interviewId/invite/",
      ({ actor, clientIp, params, body }) =>
        inviteToInterview(deps, originOf(actor, clientIp), params.interviewId, body),
      {
        auth: ["admin"],
        params: InterviewParams,
        ...jsonBody(Invite),
        response: {
          200: Interview,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "INTERVIEW_NOT_OPEN",
            "INTERVIEW_CLOSED",
            "INTERVIEW_NOT_ALLOWED",
            "INTERVIEW_ALREADY_SCHEDULED",
            "REVIEWER_CONFLICTED",
          ),
        },
        detail: {
          tags,
          summary: "Invite an application to an open slot (admins)",
          description:
            "The application must be under_review (it moves to interviewing) or interviewing (409 INTERVIEW_NOT_ALLOWED) with no other live interview (409 INTERVIEW_ALREADY_SCHEDULED); the slot open (409 INTERVIEW_NOT_OPEN) and in the future (409 INTERVIEW_CLOSED); no panel member conflicted (409 REVIEWER_CONFLICTED). The applicant is emailed the invitation with an .ics (METHOD:REQUEST).",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:interviewId/reschedule/",
      ({ actor, clientIp, params, body }) =>
        rescheduleInterview(deps, originOf(actor, clientIp), params.interviewId, body),
      {
        auth: ["admin"],
        params: InterviewParams,
        ...jsonBody(Reschedule),
        response: {
          200: Interview,
          ...problems("FORBIDDEN", "NOT_FOUND", "INTERVIEW_CLOSED", "INTERVIEW_CLASH"),
        },
        detail: {
          tags,
          summary: "Move an interview to a new time, place or link (admins)",
          description:
            "Same checks as a new slot. An invited applicant must confirm again and is emailed the same calendar event with a higher SEQUENCE. 409 INTERVIEW_CLOSED once cancelled.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:interviewId/confirm/",
      ({ actor, clientIp, params }) =>
        confirmInterview(deps, originOf(actor, clientIp), params.interviewId),
      {
        auth: ["applicant"],
        params: InterviewParams,
        response: {
          200: Interview,
          ...problems("FORBIDDEN", "NOT_FOUND", "INTERVIEW_CLOSED", "INTERVIEW_STATE_CONFLICT"),
        },
        detail: {
          tags,
          summary: "Confirm the interview's time (the invited applicant)",
          description:
            "Confirming again changes nothing. 409 INTERVIEW_CLOSED when cancelled or past; 409 INTERVIEW_STATE_CONFLICT after asking for another time.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:interviewId/reschedule-request/",
      ({ actor, clientIp, params, body }) =>
        requestReschedule(deps, originOf(actor, clientIp), params.interviewId, body ?? {}),
      {
        auth: ["applicant"],
        params: InterviewParams,
        ...jsonBody(Note),
        response: {
          200: Interview,
          ...problems("FORBIDDEN", "NOT_FOUND", "INTERVIEW_CLOSED", "INTERVIEW_STATE_CONFLICT"),
        },
        detail: {
          tags,
          summary: "Ask for another time (the invited applicant), with an optional note",
          description:
            "An admin then reschedules or cancels. 409 INTERVIEW_STATE_CONFLICT when already asked.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:interviewId/cancel/",
      ({ actor, clientIp, params, body }) =>
        cancelInterview(deps, originOf(actor, clientIp), params.interviewId, body ?? {}),
      {
        auth: ["applicant", "admin"],
        params: InterviewParams,
        ...jsonBody(Note),
        response: { 200: Interview, ...problems("FORBIDDEN", "NOT_FOUND", "INTERVIEW_CLOSED") },
        detail: {
          tags,
          summary: "Cancel an interview (the invited applicant before it, or an admin)",
          description:
            "The panel is free again; an invited applicant is emailed the calendar's CANCEL. The application stays interviewing.",
          security: writeSecurity,
        },
      },
    )
    .put(
      "/:interviewId/scores/mine/",
      ({ actor, clientIp, params, body }) =>
        saveInterviewScore(deps, originOf(actor, clientIp), params.interviewId, body),
      {
        auth: STAFF,
        params: InterviewParams,
        ...jsonBody(ScoreBody),
        response: {
          200: Interview,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "NOT_ON_PANEL",
            "CONFLICT_OF_INTEREST",
            "INTERVIEW_CLOSED",
            "INTERVIEW_NOT_HELD",
            "REVIEWS_CLOSED",
            "RUBRIC_MISSING",
          ),
        },
        detail: {
          tags,
          summary: "Score the interview (a panel member); again to revise",
          description:
            "On the program rubric's scale (422 outside it), once the interview has started (409 INTERVIEW_NOT_HELD), while the application is under_review or interviewing (409 REVIEWS_CLOSED). The panel's mean is shown beside the review's weighted total.",
          security: writeSecurity,
        },
      },
    );
