import type {
  ConditionList,
  ConditionUpdate,
  Deferral,
  DeferralList,
} from "@platform/admissions/models";
import { call } from "../../../api/client.ts";

/** An offer's conditions and deferrals (docs/admissions/offers.md), and its signed letter. */
export const offerApi = {
  conditions: (applicationId: string) =>
    call<ConditionList>("GET", `/applications/${applicationId}/conditions/`),
  settle: (applicationId: string, conditionId: string, body: ConditionUpdate) =>
    call<ConditionList>("PATCH", `/applications/${applicationId}/conditions/${conditionId}/`, {
      body,
    }),
  deferrals: (applicationId: string) =>
    call<DeferralList>("GET", `/applications/${applicationId}/deferrals/`),
  decideDeferral: (
    applicationId: string,
    deferralId: string,
    decision: "approve" | "refuse",
    note: string,
  ) =>
    call<Deferral>("POST", `/applications/${applicationId}/deferrals/${deferralId}/${decision}/`, {
      body: note ? { note } : {},
    }),
};

/** The signed offer letter's PDF (a GET: the session cookie is enough). */
export const offerLetterUrl = (applicationId: string) =>
  `/api/v1/signed-documents/offer-letters/${applicationId}/`;
