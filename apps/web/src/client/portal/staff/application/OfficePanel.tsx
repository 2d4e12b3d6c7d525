import { OfficePanels } from "../office/OfficePanels.tsx";
import type { ApplicationView } from "./view.ts";

/**
 * The office's part of the page (reviewers, the fee, the audit log) as one of its panels. It
 * reads the reviewers' state itself, once; keyed by the number of reviews the page holds, it
 * reads it again when a review is saved on this page (else a reviewer who had just scored was
 * still listed as "review awaited").
 */
export function OfficePanel({ view }: { view: ApplicationView }) {
  return (
    <OfficePanels
      key={view.reviews?.reviews.length ?? 0}
      session={{ status: "signed-in", user: view.me }}
      application={view.application}
    />
  );
}
