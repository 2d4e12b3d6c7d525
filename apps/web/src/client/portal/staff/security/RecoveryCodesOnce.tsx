import { useEffect, useRef } from "preact/hooks";
import { t } from "../../i18n/use.ts";

/** Ten recovery codes, shown this once: each signs in once in place of a code. */
export function RecoveryCodesOnce({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [codes]);
  return (
    <div
      class="panel notice"
      tabIndex={-1}
      ref={box}
      role="status"
      data-testid="mfa-recovery-codes"
    >
      <h2>{t("office.mfa.codesTitle")}</h2>
      <p>{t("office.mfa.codesText")}</p>
      <ul class="codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" onClick={onSaved} data-testid="mfa-codes-saved">
        {t("office.mfa.codesSaved")}
      </button>
    </div>
  );
}
