import { OfficePanels } from "../office/OfficePanels.tsx";
import type { ApplicationView } from "./view.ts";

/** The office's part of the page (reviewers, the fee, the audit log) as one of its panels. */
export function OfficePanel({ view }: { view: ApplicationView }) {
  return (
    <OfficePanels session={{ status: "signed-in", user: view.me }} application={view.application} />
  );
}
