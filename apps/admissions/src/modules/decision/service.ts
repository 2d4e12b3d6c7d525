/*
 * Admins' decisions on an application: which status each decision moves it to, the effects a
 * decision has (seats, the waitlist, the response deadline) and the expiry of unanswered offers.
 * The module's public face: its controller and the app's wiring import from here.
 */
import type { ApplicationStatus } from "../workflow/model.ts";
import type { Decision } from "./model.ts";

export { decisionEffects } from "./internal/effects.ts";
export { expireDueOffers } from "./internal/expiry.ts";

export const STATUS_OF: Record<Decision, ApplicationStatus> = {
  offer: "offered",
  conditional_offer: "conditionally_offered",
  waitlist: "waitlisted",
  reject: "rejected",
};
