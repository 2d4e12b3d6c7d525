import type { ReferenceContent, ReferenceList } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../../api/client.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDay, t } from "../../../i18n/use.ts";
import { FileViewer } from "../../ui/FileViewer.tsx";
import { StaffProblem } from "../../ui/StaffProblem.tsx";
import type { ApplicationView } from "../view.ts";
import { referencesApi } from "./api.ts";

/**
 * The referees the applicant named and where each reference stands; a received one is read in
 * place on request (the text, or the PDF in the viewer). The API lets admins and the assigned
 * reviewers read them (a 404 to anyone else, said in words).
 */
export function ReferencesPanel({ view }: { view: ApplicationView }) {
  const [list, setList] = useState<ReferenceList | null>(null);
  const [refused, setRefused] = useState<ApiError | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [content, setContent] = useState<Record<string, ReferenceContent | ApiError>>({});
  useEffect(() => {
    referencesApi.list(view.application.id).then((a) => (a.ok ? setList(a.data) : setRefused(a)));
  }, [view.application.id]);
  const read = async (id: string) => {
    setOpenId(openId === id ? null : id);
    if (content[id]) return;
    const answer = await referencesApi.read(id);
    setContent((all) => ({ ...all, [id]: answer.ok ? answer.data : answer }));
  };
  return (
    <section class="panel" aria-labelledby="staff-references" data-testid="references-panel">
      <h2 id="staff-references">{t("referees.heading")}</h2>
      {refused && <StaffProblem problem={refused.problem} />}
      {!list && !refused && <p aria-busy="true">{t("common.loading")}</p>}
      {list?.references.length === 0 && <p>{t("decide.references.none")}</p>}
      {list && list.references.length > 0 && (
        <ul class="reference-list">
          {list.references.map((r) => {
            const open = openId === r.id;
            const got = content[r.id];
            return (
              <li key={r.id} data-testid="reference" data-status={r.status}>
                <p>
                  <strong>{r.refereeName}</strong> · {r.relationship} ·{" "}
                  {t(`referees.status.${r.status}` as MessageKey)}
                  {r.receivedAt && ` (${formatDay(r.receivedAt)})`}
                </p>
                {r.status === "received" && (
                  <button
                    type="button"
                    class="secondary disclosure"
                    aria-expanded={open}
                    aria-controls={`reference-${r.id}`}
                    onClick={() => read(r.id)}
                    data-testid="reference-read"
                  >
                    {t(open ? "decide.references.close" : "decide.references.read", {
                      name: r.refereeName,
                    })}
                  </button>
                )}
                <div id={`reference-${r.id}`}>
                  {open && !got && <p aria-busy="true">{t("common.loading")}</p>}
                  {open && got && "problem" in got && <StaffProblem problem={got.problem} />}
                  {open && got && "text" in got && got.text !== null && (
                    <blockquote class="statement" data-testid="reference-text">
                      {got.text}
                    </blockquote>
                  )}
                  {open && got && "file" in got && got.file && (
                    <FileViewer
                      file={{
                        title: t("decide.references.from", { name: r.refereeName }),
                        url: got.file.downloadUrl,
                        mediaType: got.file.mediaType,
                        fileName: got.file.fileName,
                      }}
                    />
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
