import { t } from "../../i18n/use.ts";
import { LIST_PAGE } from "./usePaged.ts";

/** Previous and next over a list the API pages. */
export function Pager({
  offset,
  count,
  onGo,
}: {
  offset: number;
  count: number;
  onGo: (offset: number) => void;
}) {
  return (
    <nav aria-label={t("programs.pages")} class="pager">
      <button
        type="button"
        disabled={offset === 0}
        onClick={() => onGo(Math.max(0, offset - LIST_PAGE))}
      >
        {t("common.previous")}
      </button>
      <button
        type="button"
        disabled={offset + LIST_PAGE >= count}
        onClick={() => onGo(offset + LIST_PAGE)}
      >
        {t("common.next")}
      </button>
    </nav>
  );
}
