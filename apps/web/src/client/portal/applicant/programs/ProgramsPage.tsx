import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { ApiError } from "../../api/client.ts";
import type { PageOf, ProgramListItem } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDay, formatMoney, t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { inputValue } from "../../ui/useForm.ts";

const LEVELS = ["certificate", "diploma", "bachelor", "master", "doctorate"] as const;
const PAGE = 12;

/** The catalog: search by name, code or department, filter by level, a page of 12 at a time. */
export default function ProgramsPage() {
  const session = useSession();
  const [search, setSearch] = useState("");
  const [level, setLevel] = useState("");
  const [offset, setOffset] = useState(0);
  const [query, setQuery] = useState({ search: "", level: "", offset: 0 });
  const [page, setPage] = useState<PageOf<ProgramListItem> | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    admissions.programs(query.search, query.level, query.offset).then((answer) => {
      if (answer.ok) setPage(answer.data);
      else setFailure(answer);
    });
  }, [query]);
  const submit = (event: Event) => {
    event.preventDefault();
    setOffset(0);
    setQuery({ search, level, offset: 0 });
  };
  const go = (to: number) => {
    setOffset(to);
    setQuery({ ...query, offset: to });
  };
  return (
    <Layout session={session}>
      <form class="search" onSubmit={submit} aria-label={t("programs.searchSubmit")}>
        <div class="field">
          <label for="program-search">{t("programs.search")}</label>
          <input
            id="program-search"
            type="search"
            value={search}
            onInput={(e) => setSearch(inputValue(e))}
            data-testid="program-search"
          />
        </div>
        <div class="field">
          <label for="program-level">{t("programs.level")}</label>
          <select id="program-level" value={level} onChange={(e) => setLevel(inputValue(e))}>
            <option value="">{t("programs.anyLevel")}</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {t(`level.${l}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" data-testid="program-search-submit">
          {t("programs.searchSubmit")}
        </button>
      </form>
      {failure && <ProblemNotice problem={failure.problem} testId="programs-problem" />}
      {page && (
        <>
          <p role="status">{t("programs.count", { count: page.count })}</p>
          <ul class="cards" data-testid="program-list">
            {page.results.map((program) => (
              <li class="card" key={program.id} data-testid="program-item">
                <h2>
                  <a href={`/portal/programs/${program.id}`}>{program.name}</a>
                </h2>
                <p class="muted">
                  {program.code} · {t(`level.${program.level}` as MessageKey)} ·{" "}
                  {program.department}
                </p>
                <p>{t("programs.fee", { fee: formatMoney(program.applicationFee) })}</p>
                <p data-testid="program-deadline">
                  {program.nextDeadline ? (
                    <strong>
                      {t("programs.applyBy", { date: formatDay(program.nextDeadline) })}
                    </strong>
                  ) : (
                    t("programs.closed")
                  )}
                </p>
              </li>
            ))}
          </ul>
          <nav aria-label={t("programs.pages")} class="pager">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => go(Math.max(0, offset - PAGE))}
            >
              {t("common.previous")}
            </button>
            <button
              type="button"
              disabled={offset + PAGE >= page.count}
              onClick={() => go(offset + PAGE)}
            >
              {t("common.next")}
            </button>
          </nav>
        </>
      )}
    </Layout>
  );
}
