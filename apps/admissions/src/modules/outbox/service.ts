/*
 * The applicants' emails (notifications): the outbox written in each move's transaction, and
 * its delivery by the background pass.
 * The module's public face: its controller and the app's wiring import from here.
 */

export { htmlOf } from "./internal/html.ts";
export { dropMailer, type Mailer, smtpMailer } from "./internal/mailer.ts";
export {
  claimDueEmails,
  type EmailAttachment,
  enqueueEmail,
  listOutbox,
  notificationEffects,
  outboxCounts,
} from "./internal/outbox.ts";
export {
  backoffMs,
  DELIVERY_TIMING,
  type DeliveryPolicy,
  deliverDueEmails,
} from "./internal/worker.ts";
