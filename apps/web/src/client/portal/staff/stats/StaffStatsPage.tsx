import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../api/client.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { EXPORT_URL, staffApi } from "../api.ts";
import type { Stats } from "../types.ts";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { BarChart } from "./BarChart.tsx";

const statusName = (status: string) => t(`status.${status}` as MessageKey);

/** Applications by status (a chart, and the same numbers as a table), by programme; the CSV. */
export default function StaffStatsPage() {
  const session = useStaffSession();
  const [stats, setStats] = useState<Stats | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    staffApi.stats().then((a) => (a.ok ? setStats(a.data) : setFailure(a)));
  }, [session.status]);
  const statuses = stats ? Object.entries(stats.byStatus).filter(([, count]) => count > 0) : [];
  return (
    <StaffLayout session={session}>
      {failure && <ProblemNotice problem={failure.problem} />}
      {stats && (
        <>
          <p data-testid="stats-total">{t("staff.stats.total", { count: stats.total })}</p>
          <h2>{t("staff.stats.byStatus")}</h2>
          {/* At a readable size the chart is wider than a phone: it scrolls there. */}
          <ScrollTable label={t("staff.stats.byStatus")}>
            <BarChart
              title={t("staff.stats.byStatus")}
              bars={statuses.map(([status, value]) => ({ label: statusName(status), value }))}
            />
          </ScrollTable>
          <div class="table-scroll">
            <table>
              <caption>{t("staff.stats.byProgramme")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("staff.col.programme")}</th>
                  <th scope="col">{t("staff.stats.applications")}</th>
                  {statuses.map(([status]) => (
                    <th scope="col" key={status}>
                      {statusName(status)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {stats.byProgram.map((p) => (
                  <tr key={p.program.id}>
                    <th scope="row">
                      {p.program.code} · {p.program.name}
                    </th>
                    <td>{p.total}</td>
                    {statuses.map(([status]) => (
                      <td key={status}>{p.byStatus[status] ?? 0}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {session.status === "signed-in" && session.user.role === "admin" && (
            <p>
              <a href={EXPORT_URL} download data-testid="export-csv">
                {t("staff.stats.export")}
              </a>
            </p>
          )}
        </>
      )}
    </StaffLayout>
  );
}
