/*
 * Deferrals (issue 19): an accepted place moved to a later intake of the same program, asked
 * for by the applicant (or an admin for them) and approved or refused by admins.
 * The module's public face: its controller imports from here.
 */
export { approveDeferral, refuseDeferral } from "./internal/decide.ts";
export { type DeferralsDeps, listDeferrals, requestDeferral } from "./internal/request.ts";
