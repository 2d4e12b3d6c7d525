import { t } from "../../i18n/use.ts";
import { LIST_PAGE } from "./usePaged.ts";

/**
 * Previous and next over a list the API pages; nothing for a list of one page or less, whose
 * two buttons would both be disabled (the staff accounts' two entries had a pager).
 */
export function Pager({
  offset,
  count,
  onGo,
}: {
  offset: number;
  count: number;
  onGo: (offset: number) => void;
}) {
  if (offset === 0 && count <= LIST_PAGE) return null;
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
