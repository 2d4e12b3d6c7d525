import type { ReferenceContent, ReferenceList } from "@platform/admissions/models";
import { call } from "../../../api/client.ts";

/** The application's references (admins, its assigned reviewers; docs/admissions/references.md). */
export const referencesApi = {
  list: (applicationId: string) =>
    call<ReferenceList>("GET", `/references/?applicationId=${encodeURIComponent(applicationId)}`),
  /** What the referee wrote, or the PDF they sent. */
  read: (referenceId: string) => call<ReferenceContent>("GET", `/references/${referenceId}/`),
};
