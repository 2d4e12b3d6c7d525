import { useState } from "preact/hooks";
import { formatDate, t } from "../../i18n/use.ts";
import { OFFICE_PAGE, officeApi, queryOf } from "../office/api.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { AuditFilters, type AuditFilterValues } from "./AuditFilters.tsx";
import { VerifyChain } from "./VerifyChain.tsx";
import { actorOf, targetOf, whatOf, whyOf } from "./words.ts";

/**
 * The audit log (admins), newest first, in words: whose application (or what), what happened,
 * by whom and why. Filtered by application (?applicationId=, from the application's page),
 * actor and days; the hash chain verified on request.
 */
export default function StaffAuditPage() {
  const session = useStaffSession();
  const applicationId = new URLSearchParams(location.search).get("applicationId") ?? "";
  const [filters, setFilters] = useState<AuditFilterValues>({ actorId: "", from: "", to: "" });
  const [offset, setOffset] = useState(0);
  const query = queryOf({ ...filters, applicationId, limit: OFFICE_PAGE, offset });
  const log = useLoad(session, () => officeApi.audit(query), [query]);
  const staff = useLoad(session, () => officeApi.staff());
  const first = log.data?.results[0];
  return (
    <StaffLayout session={session}>
      <VerifyChain />
      {applicationId && (
        <p class="notice" data-testid="audit-for-application">
          {first?.application
            ? t("office.audit.onlyFor", { target: targetOf(first) })
            : t("office.audit.onlyOne")}{" "}
          <a href="/portal/staff/audit">{t("office.audit.showAll")}</a>
        </p>
      )}
      <AuditFilters
        staff={staff.data?.results ?? []}
        onApply={(values) => {
          setOffset(0);
          setFilters(values);
        }}
      />
      <Loaded
        loading={!log.data}
        failure={log.failure}
        empty={log.data?.count === 0}
        emptyText={t("office.audit.none")}
      >
        {log.data && (
          <>
            <p role="status">{t("staff.list.count", { count: log.data.count })}</p>
            <div class="table-scroll">
              <table data-testid="audit-log" class="audit-log">
                <caption class="visually-hidden">{t("page.staffAudit.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("staff.audit.at")}</th>
                    <th scope="col">{t("office.audit.entry")}</th>
                  </tr>
                </thead>
                <tbody>
                  {log.data.results.map((entry) => {
                    const why = whyOf(entry);
                    const what = whatOf(entry);
                    // "Rubric of Hook Testing saved" already says what it is about.
                    const alone = !entry.applicationId && what.includes(targetOf(entry));
                    const words = { what, who: actorOf(entry), why: why ?? "" };
                    return (
                      <tr key={entry.id} data-testid="audit-entry" data-action={entry.action}>
                        <td>{formatDate(entry.at)}</td>
                        <td>
                          {alone ? (
                            t(why ? "office.audit.aloneWhy" : "office.audit.alone", words)
                          ) : (
                            <>
                              {entry.applicationId ? (
                                <a href={`/portal/staff/applications/${entry.applicationId}`}>
                                  {targetOf(entry)}
                                </a>
                              ) : (
                                targetOf(entry)
                              )}
                              {t(why ? "office.audit.restWhy" : "office.audit.rest", words)}
                            </>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} count={log.data.count} onGo={setOffset} />
          </>
        )}
      </Loaded>
    </StaffLayout>
  );
}
