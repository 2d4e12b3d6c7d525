import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { ChainReport } from "../office/types.ts";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";

/**
 * Walks the audit log's hash chain on the server and says whether it holds: how many entries
 * were checked, or the first one that does not hold and why, in words.
 */
export function VerifyChain() {
  const { busy, problem, done, send } = useSend<ChainReport>();
  const report = done?.data;
  return (
    <section class="panel" aria-labelledby="verify-title">
      <h2 id="verify-title">{t("office.verify.title")}</h2>
      <p class="hint">{t("office.verify.hint")}</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => send(() => officeApi.verifyAudit())}
        data-testid="audit-verify"
      >
        {t(busy ? "office.verify.busy" : "office.verify.button")}
      </button>
      {problem && <OfficeProblem problem={problem} />}
      {report && (
        <p
          role="status"
          class={report.ok ? "notice" : "problem"}
          data-testid="audit-verified"
          data-ok={report.ok}
        >
          {report.ok
            ? t("office.verify.ok", {
                checked: report.checked,
                redacted: report.redacted,
                seq: report.head.seq,
              })
            : t("office.verify.broken", {
                seq: report.firstBroken?.seq ?? "?",
                why: t(
                  `office.verify.reason.${report.firstBroken?.reason ?? "missing"}` as MessageKey,
                ),
              })}
        </p>
      )}
    </section>
  );
}
