import { useApplication } from "../../application/useApplication.ts";
import { ReturnToApplication, SectionLayout } from "../SectionLayout.tsx";
import { RefereesPanel } from "./RefereesPanel.tsx";

/** References: who is asked, and whether each has answered; name or remove a referee. */
export default function RefereesPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state} draftOnly={false}>
      {(application) => (
        <>
          <RefereesPanel
            applicationId={application.id}
            editable={application.status === "draft" || application.status === "submitted"}
          />
          <ReturnToApplication id={application.id} />
        </>
      )}
    </SectionLayout>
  );
}
