import type { MessageKey } from "../../i18n/index.ts";
import { formatDay, t } from "../../i18n/use.ts";
import type { OfficeQueueRow } from "../office/types.ts";

/**
 * The office queue's rows: tick, applicant, programme, submitted, deadline, status, score,
 * reviewers, payment and flags. The applicant's name leads to the application.
 */
export function OfficeQueueTable({
  rows,
  selected,
  onTick,
}: {
  rows: OfficeQueueRow[];
  selected: string[];
  onTick: (id: string, on: boolean) => void;
}) {
  return (
    <div class="table-scroll">
      <table data-testid="staff-queue" class="queue">
        <caption class="visually-hidden">{t("office.queue.caption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("staff.bulk.select")}</th>
            <th scope="col">{t("staff.col.applicant")}</th>
            <th scope="col">{t("staff.col.programme")}</th>
            <th scope="col">{t("staff.col.submitted")}</th>
            <th scope="col">{t("office.col.deadline")}</th>
            <th scope="col">{t("staff.col.status")}</th>
            <th scope="col">{t("office.col.score")}</th>
            <th scope="col">{t("office.col.reviewers")}</th>
            <th scope="col">{t("office.col.payment")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ application: a, score, reviews, assignees, payment, flags }) => (
            <tr
              key={a.id}
              data-testid="queue-item"
              data-payment={payment.state}
              data-score={score ?? ""}
            >
              <td>
                <input
                  type="checkbox"
                  checked={selected.includes(a.id)}
                  onChange={(e) => onTick(a.id, (e.currentTarget as HTMLInputElement).checked)}
                  aria-label={t("staff.bulk.selectOne", { name: a.applicant.fullName })}
                  data-testid="queue-select"
                />
              </td>
              <th scope="row">
                <a href={`/portal/staff/applications/${a.id}`}>{a.applicant.fullName}</a>
                {flags.length > 0 && (
                  <span class="flags">
                    {flags.map((f) => (
                      <span key={f} class="tag" data-flag={f}>
                        {t(`office.flag.${f}` as MessageKey)}
                      </span>
                    ))}
                  </span>
                )}
              </th>
              <td>
                {a.program.code} ({a.intake.term})
              </td>
              <td>{a.submittedAt ? formatDay(a.submittedAt) : "—"}</td>
              <td>{formatDay(a.intake.deadline)}</td>
              <td>{t(`status.${a.status}` as MessageKey)}</td>
              <td data-testid="queue-score">
                {score === null ? "—" : t("office.queue.scoreOf", { score, count: reviews })}
              </td>
              <td>
                {assignees.length === 0
                  ? t("office.queue.nobody")
                  : assignees.map((r) => `${r.fullName}${r.reviewed ? " ✓" : ""}`).join(", ")}
              </td>
              <td>
                {t(`office.payment.state.${payment.state}` as MessageKey)}
                {payment.pendingReference && (
                  <span class="muted block">{payment.pendingReference}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
