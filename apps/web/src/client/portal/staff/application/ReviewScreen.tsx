import { DocumentsPanel } from "./documents/DocumentsPanel.tsx";
import { ReferencesPanel } from "./references/ReferencesPanel.tsx";
import { ReviewsPanel } from "./reviews/ReviewsPanel.tsx";
import type { ApplicationView } from "./view.ts";

/**
 * Review on one screen: what the applicant sent (documents, references) on the left, the
 * rubric and the panel's reviews on the right; one column on a phone, documents first.
 */
export function ReviewScreen({ view }: { view: ApplicationView }) {
  return (
    <div class="review-screen" data-testid="review-screen">
      <div class="review-materials">
        <DocumentsPanel documents={view.documents} />
        <ReferencesPanel view={view} />
      </div>
      <div class="review-assessment">
        <ReviewsPanel view={view} />
      </div>
    </div>
  );
}
