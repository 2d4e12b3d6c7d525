import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { formatMoney, t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { OFFICE_PAGE, officeApi, queryOf } from "../office/api.ts";
import { OFFICE_ROUTES } from "../office/routes.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";

const STATES = ["all", "open", "closed"] as const;

/** The catalogue (admins): every programme, open or closed, searched and paged by the API. */
export default function ProgrammesPage() {
  const session = useStaffSession();
  const [typed, setTyped] = useState("");
  const [filters, setFilters] = useState({ search: "", state: "all" as (typeof STATES)[number] });
  const [offset, setOffset] = useState(0);
  const query = queryOf({
    search: filters.search,
    active: filters.state === "all" ? undefined : filters.state === "open",
    ordering: "name",
    limit: OFFICE_PAGE,
    offset,
  });
  const { data, failure, loading } = useLoad(session, () => officeApi.programmes(query), [query]);
  const submit = (event: Event) => {
    event.preventDefault();
    setOffset(0);
    setFilters({ ...filters, search: typed.trim() });
  };
  return (
    <StaffLayout session={session}>
      <p class="actions">
        <a class="button" href={OFFICE_ROUTES.staffProgrammeNew} data-testid="programme-new">
          {t("office.programmes.new")}
        </a>
        <a href={OFFICE_ROUTES.staffReasons}>{t("office.programmes.reasons")}</a>
      </p>
      <form class="search" onSubmit={submit} aria-label={t("office.programmes.search")}>
        <div class="field">
          <label for="programme-search">{t("office.programmes.search")}</label>
          <input
            id="programme-search"
            type="search"
            maxLength={100}
            value={typed}
            onInput={(e) => setTyped(inputValue(e))}
          />
        </div>
        <div class="field">
          <label for="programme-state">{t("office.programmes.state")}</label>
          <select
            id="programme-state"
            value={filters.state}
            onChange={(e) => {
              setOffset(0);
              setFilters({ ...filters, state: inputValue(e) as (typeof STATES)[number] });
            }}
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`office.programmes.state.${s}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t("programs.searchSubmit")}</button>
      </form>
      <Loaded
        loading={loading && !data}
        failure={failure}
        empty={data?.count === 0}
        emptyText={t(
          filters.search || filters.state !== "all"
            ? "office.programmes.none"
            : "office.programmes.noneYet",
        )}
      >
        {data && (
          <>
            <p role="status">{t("office.programmes.count", { count: data.count })}</p>
            <div class="table-scroll">
              <table data-testid="staff-programmes">
                <caption class="visually-hidden">{t("page.staffProgrammes.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("office.programme.name")}</th>
                    <th scope="col">{t("office.programme.code")}</th>
                    <th scope="col">{t("office.programme.level")}</th>
                    <th scope="col">{t("office.programme.fee")}</th>
                    <th scope="col">{t("office.programmes.stateColumn")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.results.map((p) => (
                    <tr key={p.id} data-testid="staff-programme" data-active={p.active}>
                      <th scope="row">
                        <a href={`/portal/staff/programmes/${p.id}`}>{p.name}</a>
                      </th>
                      <td>{p.code}</td>
                      <td>{t(`level.${p.level}` as MessageKey)}</td>
                      <td>{formatMoney(p.applicationFee)}</td>
                      <td>{t(p.active ? "office.programme.open" : "office.programme.closed")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} count={data.count} onGo={setOffset} />
          </>
        )}
      </Loaded>
    </StaffLayout>
  );
}
