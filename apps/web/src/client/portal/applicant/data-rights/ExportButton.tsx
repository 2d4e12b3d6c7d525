import { useState } from "preact/hooks";
import { type Download, downloadExport, saveBlob } from "../../api/account.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";

/** The ZIP is made as it streams, so the button says it is busy until the file is handed over. */
export function ExportButton({ onDone }: { onDone: () => void }) {
  const { busy, problem, send } = useSend<Download>();
  const [saved, setSaved] = useState(false);
  const run = async () => {
    setSaved(false);
    const answer = await send(downloadExport);
    if (answer) {
      saveBlob(answer.data);
      setSaved(true);
      onDone();
    }
  };
  return (
    <div>
      {problem && <ProblemNotice problem={problem} testId="export-problem" />}
      {saved && (
        <p role="status" data-testid="export-done">
          {t("data.exportDone")}
        </p>
      )}
      <button type="button" onClick={run} disabled={busy} aria-busy={busy} data-testid="export">
        {busy ? t("data.exporting") : t("data.exportButton")}
      </button>
    </div>
  );
}
