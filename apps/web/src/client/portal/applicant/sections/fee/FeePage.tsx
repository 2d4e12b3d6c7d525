import { admissions } from "../../../api/admissions.ts";
import type { Application } from "../../../api/types.ts";
import { t } from "../../../i18n/use.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { useApplication, useLoaded } from "../../application/useApplication.ts";
import { ReturnToApplication, SectionLayout } from "../SectionLayout.tsx";
import { PaymentStep } from "./PaymentStep.tsx";

function FeeSection({ application }: { application: Application }) {
  const id = application.id;
  const fee = useLoaded(true, () => admissions.fee(id));
  const payments = useLoaded(true, () => admissions.payments(id));
  const failure = fee.failure ?? payments.failure;
  if (failure) return <ProblemNotice problem={failure.problem} />;
  if (!fee.data || !payments.data) return <p aria-busy="true">{t("common.loading")}</p>;
  return (
    <PaymentStep
      applicationId={id}
      fee={fee.data}
      payments={payments.data.results}
      editable={application.status === "draft"}
      onChange={() => {
        fee.reload();
        payments.reload();
      }}
    />
  );
}

/** The application fee: pay by transfer (the account and the reference) or card, or ask. */
export default function FeePage() {
  const state = useApplication();
  return (
    <SectionLayout state={state} draftOnly={false}>
      {(application) => (
        <>
          <FeeSection application={application} />
          <ReturnToApplication id={application.id} />
        </>
      )}
    </SectionLayout>
  );
}
