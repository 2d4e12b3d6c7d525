import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatMoney, t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { OFFICE_PAGE, officeApi, queryOf } from "../office/api.ts";
import type { DeskPayment } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { PaymentActions, surplusOf } from "./PaymentActions.tsx";

export const DESK_STATUSES = ["pending", "succeeded", "refunded", "failed", "expired"] as const;

/**
 * The payments desk (admins): bank transfers awaiting confirmation, the longest waiting first,
 * found by the reference on the statement or the applicant; a payment chosen from the list is
 * confirmed, recorded as not received, or refunded below it.
 */
export default function PaymentsDeskPage() {
  const session = useStaffSession();
  const [typed, setTyped] = useState("");
  const [filters, setFilters] = useState({
    status: "pending" as (typeof DESK_STATUSES)[number],
    search: "",
    overpaid: false,
  });
  const [offset, setOffset] = useState(0);
  const [chosen, setChosen] = useState<DeskPayment | null>(null);
  const [notice, setNotice] = useState("");
  const [reloads, setReloads] = useState(0);
  const query = queryOf({
    status: filters.status,
    search: filters.search,
    overpaid: filters.overpaid || undefined,
    limit: OFFICE_PAGE,
    offset,
  });
  const desk = useLoad(session, () => officeApi.desk(query), [query, reloads]);
  const refilter = (patch: Partial<typeof filters>) => {
    setOffset(0);
    setChosen(null);
    setFilters({ ...filters, ...patch });
  };
  return (
    <StaffLayout session={session}>
      <form
        class="search"
        aria-label={t("office.desk.filters")}
        onSubmit={(e) => {
          e.preventDefault();
          refilter({ search: typed.trim() });
        }}
      >
        <div class="field">
          <label for="desk-search">{t("office.desk.search")}</label>
          <input
            id="desk-search"
            type="search"
            maxLength={100}
            value={typed}
            onInput={(e) => setTyped(inputValue(e))}
            data-testid="desk-search"
          />
        </div>
        <div class="field">
          <label for="desk-status">{t("office.desk.status")}</label>
          <select
            id="desk-status"
            value={filters.status}
            onChange={(e) => refilter({ status: inputValue(e) as typeof filters.status })}
          >
            {DESK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`office.desk.status.${s}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <label class="choice">
          <input
            type="checkbox"
            checked={filters.overpaid}
            onChange={(e) => refilter({ overpaid: (e.currentTarget as HTMLInputElement).checked })}
          />
          {t("office.desk.overpaid")}
        </label>
        <button type="submit">{t("programs.searchSubmit")}</button>
      </form>
      {notice && (
        <p role="status" class="notice" data-testid="payment-done">
          {notice}
        </p>
      )}
      <Loaded
        loading={desk.loading && !desk.data}
        failure={desk.failure}
        empty={desk.data?.count === 0}
        emptyText={t(
          filters.status === "pending" && !filters.search
            ? "office.desk.noneWaiting"
            : "office.desk.none",
        )}
      >
        {desk.data && (
          <>
            <p role="status">{t("office.desk.count", { count: desk.data.count })}</p>
            <div class="table-scroll">
              <table data-testid="payments-desk">
                <caption class="visually-hidden">{t("page.staffPayments.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("staff.col.applicant")}</th>
                    <th scope="col">{t("office.desk.reference")}</th>
                    <th scope="col">{t("office.desk.amount")}</th>
                    <th scope="col">
                      {t(
                        filters.status === "pending" ? "office.desk.since" : "office.desk.updated",
                      )}
                    </th>
                    <th scope="col">{t("staff.col.programme")}</th>
                    <th scope="col">{t("office.actions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {desk.data.results.map((p) => (
                    <tr
                      key={p.id}
                      data-testid="payment-row"
                      data-status={p.status}
                      aria-current={chosen?.id === p.id ? "true" : undefined}
                    >
                      <th scope="row">
                        <a href={`/portal/staff/applications/${p.application.id}`}>
                          {p.application.applicant.fullName}
                        </a>
                        <span class="muted block">{p.application.applicant.email}</span>
                      </th>
                      <td>
                        <code>{p.reference}</code>
                      </td>
                      <td>
                        {formatMoney(p.amount)}
                        {surplusOf(p) > 0 && (
                          <span class="muted block">
                            {t("office.desk.receivedOver", {
                              received: formatMoney(p.received ?? p.amount),
                            })}
                          </span>
                        )}
                      </td>
                      <td>
                        {formatDate(filters.status === "pending" ? p.createdAt : p.updatedAt)}
                      </td>
                      <td>
                        {p.application.program.code} ({p.application.intake.term})
                      </td>
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => {
                            setNotice("");
                            setChosen(p);
                          }}
                          data-testid="payment-choose"
                        >
                          {t(p.status === "pending" ? "office.desk.choose" : "office.desk.open")}
                          <span class="visually-hidden">
                            {" "}
                            {t("office.desk.chooseOne", {
                              name: p.application.applicant.fullName,
                              reference: p.reference,
                            })}
                          </span>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} count={desk.data.count} onGo={setOffset} />
          </>
        )}
      </Loaded>
      {chosen && (
        <section class="panel" aria-labelledby="payment-chosen" data-testid="payment-panel">
          <h2 id="payment-chosen">
            {t("office.desk.chosen", {
              name: chosen.application.applicant.fullName,
              reference: chosen.reference,
            })}
          </h2>
          <p>
            {t("office.desk.chosenFacts", {
              amount: formatMoney(chosen.amount),
              status: t(`paymentStatus.${chosen.status}` as MessageKey),
            })}
          </p>
          <PaymentActions
            key={chosen.id}
            payment={chosen}
            onChanged={(_, message) => {
              setChosen(null);
              setNotice(message);
              setReloads((n) => n + 1);
              document.getElementById("desk-search")?.focus();
            }}
          />
        </section>
      )}
    </StaffLayout>
  );
}
