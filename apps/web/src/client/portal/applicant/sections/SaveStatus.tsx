import { formatDate, t } from "../../i18n/use.ts";
import type { SaveState } from "./useAutosave.ts";

/**
 * Where the autosave stands (announced politely), and the conflict's two choices when another
 * tab or device saved first. A refusal is said by the form's error summary, not here.
 */
export function SaveStatus({
  state,
  resolve,
}: {
  state: SaveState;
  resolve: (keepMine: boolean) => void;
}) {
  return (
    <>
      <p class="save-state" role="status" data-testid="save-state">
        {state.kind === "saving" && t("application.saving")}
        {state.kind === "saved" && t("application.saved", { when: formatDate(state.at) })}
      </p>
      {state.kind === "conflict" && (
        <div class="problem" role="alert" data-testid="save-conflict">
          <p>{t("application.conflict")}</p>
          <button type="button" onClick={() => resolve(true)} data-testid="conflict-keep-mine">
            {t("application.conflictKeepMine")}
          </button>{" "}
          <button
            type="button"
            class="secondary"
            onClick={() => resolve(false)}
            data-testid="conflict-load-theirs"
          >
            {t("application.conflictLoadTheirs")}
          </button>
        </div>
      )}
    </>
  );
}
