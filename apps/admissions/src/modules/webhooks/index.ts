import { clientGuards, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, noContent, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { originOf } from "../workflow/service.ts";
import {
  WebhookDeliveryDetail,
  WebhookDeliveryPage,
  WebhookDeliveryParams,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from "./model.ts";
import {
  createEndpoint,
  deleteEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateSecret,
  updateEndpoint,
  type WebhooksDeps,
} from "./service.ts";

type Deps = WebhooksDeps & { guard: AuthGuard; trustedProxies: TrustedProxies };
const tags = ["integrations"];

/** Admins' webhook endpoints, their secrets (shown once) and their deliveries. */
export const webhooks = (deps: Deps) =>
  new Elysia({ name: "webhooks", prefix: "/api/v1/webhooks" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/", () => listEndpoints(deps.db), {
      auth: ["admin"],
      response: { 200: WebhookEndpointList, ...problems("FORBIDDEN") },
      detail: { tags, summary: "Webhook endpoints (admins)", security: readSecurity },
    })
    .post(
      "/",
      async ({ actor, clientIp, body, set }) => {
        set.status = 201;
        return createEndpoint(deps, originOf(actor, clientIp), body);
      },
      {
        auth: ["admin"],
        ...jsonBody(WebhookEndpointCreate),
        response: { 201: WebhookEndpointWithSecret, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "Add an endpoint (admins); its signing secret is in this response only",
          description:
            "https:// only, and never a private, loopback or link-local address (422), unless ADMISSIONS_WEBHOOKS_ALLOW_PRIVATE_TARGETS is on. It receives the events published from now on.",
          security: writeSecurity,
        },
      },
    )
    .get("/:id/", ({ params }) => getEndpoint(deps.db, params.id), {
      auth: ["admin"],
      params: IdParams,
      response: { 200: WebhookEndpoint, ...problems("FORBIDDEN", "NOT_FOUND") },
      detail: { tags, summary: "One webhook endpoint (admins)", security: readSecurity },
    })
    .patch(
      "/:id/",
      ({ actor, clientIp, params, body }) =>
        updateEndpoint(deps, originOf(actor, clientIp), params.id, body),
      {
        auth: ["admin"],
        params: IdParams,
        ...jsonBody(WebhookEndpointUpdate),
        response: { 200: WebhookEndpoint, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Change an endpoint's URL, event types or description, or disable it",
          description:
            "A disabled endpoint gets no deliveries for events published meanwhile; its pending ones wait and go out once it is enabled again.",
          security: writeSecurity,
        },
      },
    )
    .delete(
      "/:id/",
      async ({ actor, clientIp, params, set }) => {
        await deleteEndpoint(deps, originOf(actor, clientIp), params.id);
        set.status = 204;
      },
      {
        auth: ["admin"],
        params: IdParams,
        response: problems("FORBIDDEN", "NOT_FOUND"),
        detail: {
          tags,
          summary: "Delete an endpoint with its deliveries (admins)",
          security: writeSecurity,
          responses: noContent("Deleted"),
        },
      },
    )
    .post(
      "/:id/rotate-secret/",
      ({ actor, clientIp, params }) => rotateSecret(deps, originOf(actor, clientIp), params.id),
      {
        auth: ["admin"],
        params: IdParams,
        response: { 200: WebhookEndpointWithSecret, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "Replace the signing secret (admins); the new one is in this response only",
          description: "Every attempt from now on, retries included, is signed with the new one.",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/:id/deliveries/",
      ({ params, query, request }) =>
        listDeliveries(deps.db, params.id, query, pageOf(query), request.url),
      {
        auth: ["admin"],
        params: IdParams,
        query: WebhookDeliveryQuery,
        response: { 200: WebhookDeliveryPage, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "An endpoint's deliveries (admins): status, attempts, last answer",
          security: readSecurity,
        },
      },
    )
    .get(
      "/:id/deliveries/:deliveryId/",
      ({ params }) => getDelivery(deps.db, params.id, params.deliveryId),
      {
        auth: ["admin"],
        params: WebhookDeliveryParams,
        response: { 200: WebhookDeliveryDetail, ...problems("FORBIDDEN", "NOT_FOUND") },
        detail: {
          tags,
          summary: "One delivery with every attempt (admins)",
          security: readSecurity,
        },
      },
    )
    .post(
      "/:id/deliveries/:deliveryId/redeliver/",
      async ({ actor, clientIp, params, set }) => {
        set.status = 202;
        return redeliver(deps, originOf(actor, clientIp), params.id, params.deliveryId);
      },
      {
        auth: ["admin"],
        params: WebhookDeliveryParams,
        response: {
          202: WebhookDeliveryDetail,
          ...problems("FORBIDDEN", "NOT_FOUND", "WEBHOOK_DELIVERY_PENDING"),
        },
        detail: {
          tags,
          summary: "Send a delivered or dead delivery again (admins), with the same webhook-id",
          security: writeSecurity,
        },
      },
    );
