/*
 * Signed outgoing webhooks (issue 19): admins' endpoints with sealed secrets, one delivery per
 * event and endpoint made when the event is published (`fanOut`, the change feed publisher's
 * hook), and their delivery with retries, backoff and a dead letter, as the email outbox does.
 * The module's public face: its controller and the app's wiring import from here.
 */

export { blockedRange } from "./internal/address.ts";
export {
  deliveryCounts,
  getDelivery,
  listDeliveries,
  redeliver,
} from "./internal/deliveries.ts";
export {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhooksDeps,
} from "./internal/endpoints.ts";
export { fanOut } from "./internal/fanout.ts";
export { type SecretBox, secretBox } from "./internal/secret.ts";
export { signedHeaders, TOLERANCE_SECONDS, verifySignature } from "./internal/signature.ts";
export { type PinnedTarget, pinTargets, type Resolver, urlProblem } from "./internal/target.ts";
export { deliverDueWebhooks, type WebhookSender } from "./internal/worker.ts";
