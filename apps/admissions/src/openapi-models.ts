import * as account from "./modules/account/model.ts";
import * as applications from "./modules/applications/model.ts";
import * as audit from "./modules/audit/model.ts";
import * as auth from "./modules/auth/model.ts";
import * as catalog from "./modules/catalog/model.ts";
import * as dataRights from "./modules/data-rights/model.ts";
import * as documents from "./modules/documents/model.ts";
import * as events from "./modules/events/model.ts";
import * as interviews from "./modules/interviews/model.ts";
import * as mfa from "./modules/mfa/model.ts";
import * as offers from "./modules/offers/model.ts";
import * as outbox from "./modules/outbox/model.ts";
import * as payments from "./modules/payments/model.ts";
import * as profile from "./modules/profile/model.ts";
import * as references from "./modules/references/model.ts";
import * as review from "./modules/review/model.ts";
import * as signedDocuments from "./modules/signed-documents/model.ts";
import * as staff from "./modules/staff/model.ts";
import * as users from "./modules/users/model.ts";
import * as webhooks from "./modules/webhooks/model.ts";
import * as workflow from "./modules/workflow/model.ts";
/**
 * Every module's model.ts, whose PascalCase schemas become the named schemas of the OpenAPI
 * document (components.schemas), each named as it is exported: a model file needs no annotation.
 * Lower layers first (users, auth, workflow, catalog, then the features): the first export of a
 * shape names it. test/reference.test.ts checks that every module's model.ts is listed.
 */
export const MODELS: Record<string, Record<string, unknown>> = {
  users,
  auth,
  workflow,
  catalog,
  account,
  applications,
  audit,
  dataRights,
  documents,
  events,
  // Before interviews: offers' DeferralDecision and interviews' Note are one shape, published
  // under the first name.
  offers,
  interviews,
  mfa,
  outbox,
  payments,
  profile,
  references,
  // Keyed "reviews": a name two modules export (ReviewBody) is published with its module's name,
  // and the review module's has always been ReviewsReviewBody.
  reviews: review,
  signedDocuments,
  staff,
  webhooks,
};
