import type { Application, Interview } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { useLoad } from "../office/ui/useLoad.ts";
import { formatSpan } from "../ui/format.ts";
import { Pager } from "../ui/Pager.tsx";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { useStaffSession } from "../ui/session.ts";
import { LIST_PAGE } from "../ui/usePaged.ts";
import { interviewsApi } from "./api.ts";
import { applicantName } from "./format.ts";

const STATUSES = ["open", "invited", "confirmed", "reschedule_requested", "cancelled"] as const;

/**
 * The office's interviews by start time: those still to come by default, or all; by status;
 * a reviewer's own panels first (an admin sees everyone's). 20 a page of the API's 200 at
 * most; each invited row names its applicant (read for the rows shown, not all of them).
 */
export default function InterviewsPage() {
  const session = useStaffSession();
  const me = session.status === "signed-in" ? session.user : null;
  const [upcoming, setUpcoming] = useState(true);
  const [status, setStatus] = useState<Interview["status"] | "">("");
  const [mine, setMine] = useState<boolean | null>(null);
  const [offset, setOffset] = useState(0);
  const [applications, setApplications] = useState<Record<string, Application>>({});
  const onlyMine = mine ?? me?.role === "reviewer";
  // useLoad shows only the answer to the latest filter: choosing by arrow keys asks once a
  // press, and an earlier answer can come last.
  const listed = useLoad(
    session,
    () =>
      interviewsApi.list({
        status: status || undefined,
        mine: onlyMine,
        from: upcoming ? new Date().toISOString() : undefined,
      }),
    [me?.id, upcoming, status, onlyMine],
  );
  useEffect(() => setOffset(0), [listed.data]);
  const refused = listed.failure;
  const list = refused ? [] : (listed.data?.results ?? null);
  const shown = list?.slice(offset, offset + LIST_PAGE) ?? [];
  useEffect(() => {
    const missing = [
      ...new Set(shown.map((i) => i.applicationId).filter((id): id is string => !!id)),
    ].filter((id) => !applications[id]);
    for (const id of missing) {
      interviewsApi.application(id).then((a) => {
        if (a.ok) setApplications((all) => ({ ...all, [id]: a.data }));
      });
    }
  }, [list, offset]);
  return (
    <StaffLayout session={session}>
      {me?.role === "admin" && (
        <p>
          <a
            href="/portal/staff/interviews/new"
            class="button-link"
            data-testid="interview-slot-new"
          >
            {t("decide.slots.new")}
          </a>
        </p>
      )}
      <form class="search" onSubmit={(e) => e.preventDefault()} data-testid="interview-filters">
        <div class="field">
          <label for="interviews-when">{t("decide.interviews.when")}</label>
          <select
            id="interviews-when"
            value={upcoming ? "upcoming" : "all"}
            onChange={(e) => setUpcoming(inputValue(e) === "upcoming")}
          >
            <option value="upcoming">{t("decide.interviews.upcoming")}</option>
            <option value="all">{t("decide.interviews.all")}</option>
          </select>
        </div>
        <div class="field">
          <label for="interviews-status">{t("decide.interview.status")}</label>
          <select
            id="interviews-status"
            value={status}
            onChange={(e) => setStatus(inputValue(e) as Interview["status"] | "")}
          >
            <option value="">{t("decide.interviews.anyStatus")}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`decide.interview.status.${s}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
        <label class="choice">
          <input
            type="checkbox"
            checked={onlyMine}
            onChange={(e) => setMine((e.currentTarget as HTMLInputElement).checked)}
            data-testid="interviews-mine"
          />{" "}
          {t("decide.interviews.mine")}
        </label>
      </form>
      {refused && <StaffProblem problem={refused.problem} />}
      {!list && !refused && <p aria-busy="true">{t("common.loading")}</p>}
      {list && (
        <>
          <p role="status" data-testid="interviews-count">
            {t("decide.interviews.count", { count: list.length })}
          </p>
          {list.length === 0 && <p>{t("decide.interviews.empty")}</p>}
          {list.length > 0 && (
            <ScrollTable label={t("page.staffInterviews.title")}>
              <table data-testid="interviews">
                <caption class="visually-hidden">{t("page.staffInterviews.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("decide.interview.when")}</th>
                    <th scope="col">{t("decide.interview.where")}</th>
                    <th scope="col">{t("decide.interview.panel")}</th>
                    <th scope="col">{t("decide.interview.status")}</th>
                    <th scope="col">{t("decide.interview.applicant")}</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((i) => {
                    const application = i.applicationId ? applications[i.applicationId] : undefined;
                    return (
                      <tr key={i.id} data-testid="interview-row" data-status={i.status}>
                        <td>
                          <a href={`/portal/staff/interviews/${i.id}`}>
                            {formatSpan(i.startsAt, i.endsAt)}
                          </a>
                        </td>
                        <td>{i.location ?? t("decide.interview.onlineShort")}</td>
                        <td>{i.panel.map((p) => p.fullName).join(", ")}</td>
                        <td>{t(`decide.interview.status.${i.status}` as MessageKey)}</td>
                        <td>
                          {!i.applicationId && t("decide.interview.nobody")}
                          {i.applicationId && !application && "…"}
                          {application && (
                            <a href={`/portal/staff/applications/${application.id}`}>
                              {applicantName(application)} · {application.program.code}
                            </a>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollTable>
          )}
          {/* One page or less: no pager, whose two buttons would both be disabled. */}
          {list.length > LIST_PAGE && (
            <Pager offset={offset} count={list.length} onGo={setOffset} />
          )}
        </>
      )}
    </StaffLayout>
  );
}
