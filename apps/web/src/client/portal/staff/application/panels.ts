import { InterviewsPanel } from "../interviews/ApplicationInterviews.tsx";
import { ApplicantPanel } from "./ApplicantPanel.tsx";
import { DecisionPanel } from "./DecisionPanel.tsx";
import { OfficePanel } from "./OfficePanel.tsx";
import { OfferPanel } from "./offer/OfferPanel.tsx";
import { ReviewScreen } from "./ReviewScreen.tsx";
import type { ApplicationPanel } from "./view.ts";

/**
 * The staff application page, top to bottom. Each panel takes the page's view (view.ts) and
 * shows itself only where it applies (to admins, at some statuses): a new part of the page is
 * one line here.
 */
export const APPLICATION_PANELS: ApplicationPanel[] = [
  { key: "applicant", Panel: ApplicantPanel },
  { key: "review", Panel: ReviewScreen },
  { key: "office", Panel: OfficePanel },
  { key: "interviews", Panel: InterviewsPanel },
  { key: "decision", Panel: DecisionPanel },
  { key: "offer", Panel: OfferPanel },
];
