import type { Problem } from "@platform/contracts/problem";
import { useState } from "preact/hooks";
import { admissions } from "../../../api/admissions.ts";
import type { Application, Document } from "../../../api/types.ts";
import { t } from "../../../i18n/use.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { useApplication, useLoaded } from "../../application/useApplication.ts";
import { ReturnToApplication, SectionLayout } from "../SectionLayout.tsx";
import { Checklist } from "./Checklist.tsx";
import { UploadForm } from "./UploadForm.tsx";

function DocumentsSection({ application }: { application: Application }) {
  const id = application.id;
  const checklist = useLoaded(true, () => admissions.checklist(id));
  const documents = useLoaded(true, () => admissions.documents(id));
  const [said, setSaid] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const reload = () => {
    checklist.reload();
    documents.reload();
  };

  const remove = async (document: Document) => {
    setSaid(null);
    setProblem(null);
    const answer = await admissions.removeDocument(id, document.id);
    if (answer.ok) setSaid(t("documents.removed", { name: document.fileName }));
    else setProblem(answer.problem);
    reload();
  };

  /** A new file of a type already on file replaces the old ones: they are removed after it. */
  const uploaded = async (document: Document) => {
    const older = (documents.data?.results ?? []).filter(
      (d) => d.type === document.type && d.id !== document.id,
    );
    for (const old of older) await admissions.removeDocument(id, old.id);
    const first = older[0];
    setSaid(
      first
        ? t("documents.replaced", { name: document.fileName, old: first.fileName })
        : t("documents.uploaded", { name: document.fileName }),
    );
    reload();
  };

  const failure = checklist.failure ?? documents.failure;
  if (failure) return <ProblemNotice problem={failure.problem} />;
  if (!checklist.data || !documents.data) return <p aria-busy="true">{t("common.loading")}</p>;
  const items = checklist.data.items;
  return (
    <>
      <p>{items.length === 0 ? t("documents.none") : t("documents.intro")}</p>
      {problem && <ProblemNotice problem={problem} testId="document-problem" />}
      <p role="status" data-testid="upload-status">
        {said}
      </p>
      <Checklist items={items} documents={documents.data.results} onRemove={remove} />
      {items.length > 0 && (
        <UploadForm
          applicationId={id}
          types={items.map((i) => i.type)}
          firstMissing={items.find((i) => i.status === "missing")?.type}
          onUploaded={uploaded}
          onStart={() => {
            setSaid(null);
            setProblem(null);
          }}
        />
      )}
    </>
  );
}

/** Documents: the checklist, each file with "remove", and the upload (a new file replaces). */
export default function DocumentsPage() {
  const state = useApplication();
  return (
    <SectionLayout state={state}>
      {(application) => (
        <>
          <DocumentsSection application={application} />
          <ReturnToApplication id={application.id} />
        </>
      )}
    </SectionLayout>
  );
}
