import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";

/**
 * The admin's search over the applications awaiting a decision: the API filters (applicant name
 * or email, programme name or code) and pages, so the page holds one page of rows whatever the
 * queue's size.
 */
export function QueueSearch({ onSearch }: { onSearch: (search: string) => void }) {
  const [search, setSearch] = useState("");
  const submit = (event: Event) => {
    event.preventDefault();
    onSearch(search.trim());
  };
  return (
    <form class="search" onSubmit={submit} aria-label={t("staff.queue.search")}>
      <div class="field">
        <label for="queue-search">{t("staff.queue.search")}</label>
        <input
          id="queue-search"
          type="search"
          value={search}
          maxLength={100}
          onInput={(e) => setSearch(inputValue(e))}
          data-testid="queue-search"
        />
      </div>
      <button type="submit" data-testid="queue-search-submit">
        {t("programs.searchSubmit")}
      </button>
    </form>
  );
}
