import type { Seats, StaffDeferral } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import { call } from "../../api/client.ts";
import type { PageOf } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import { PagedTable } from "../ui/PagedTable.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { useStaffSession } from "../ui/session.ts";
import { LIST_PAGE, usePaged } from "../ui/usePaged.ts";

const SHOWN = ["requested", "approved", "refused", "all"] as const;
type Shown = (typeof SHOWN)[number];

const deferrals = (status: Shown, offset: number) =>
  call<PageOf<StaffDeferral>>(
    "GET",
    `/staff/deferrals/?limit=${LIST_PAGE}&offset=${offset}${status === "all" ? "" : `&status=${status}`}`,
  );

/**
 * The office's deferral requests across applications (admins), oldest first: those waiting by
 * default, each with the seats free in the intake it would move to; the decision is made on
 * the application's page, where both intakes' seats are in view.
 */
export default function DeferralsPage() {
  const session = useStaffSession();
  const [status, setStatus] = useState<Shown>("requested");
  const [reloads, setReloads] = useState(0);
  const { offset, setOffset, page, failure } = usePaged(
    session,
    (from) => deferrals(status, from),
    reloads,
  );
  const [seats, setSeats] = useState<Record<string, Seats>>({});
  useEffect(() => {
    const wanted = new Set(
      page?.results.filter((d) => d.status === "requested").map((d) => d.toIntake.id) ?? [],
    );
    for (const intakeId of wanted) {
      staffApi
        .seats(intakeId)
        .then((a) => a.ok && setSeats((all) => ({ ...all, [intakeId]: a.data })));
    }
  }, [page]);
  return (
    <StaffLayout session={session}>
      <div class="search">
        <div class="field">
          <label for="deferrals-status">{t("decide.deferrals.show")}</label>
          <select
            id="deferrals-status"
            value={status}
            onChange={(e) => {
              setStatus(inputValue(e) as Shown);
              setOffset(0);
              setReloads((n) => n + 1);
            }}
            data-testid="deferrals-status"
          >
            {SHOWN.map((s) => (
              <option key={s} value={s}>
                {t(`decide.deferrals.shown.${s}` as MessageKey)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {failure && <StaffProblem problem={failure.problem} />}
      {!page && !failure && <p aria-busy="true">{t("common.loading")}</p>}
      {page?.count === 0 && <p data-testid="deferrals-empty">{t("decide.deferrals.empty")}</p>}
      <PagedTable
        page={page && page.count > 0 ? page : null}
        offset={offset}
        setOffset={setOffset}
        testId="staff-deferrals"
        caption="page.staffDeferrals.title"
        columns={[
          "staff.col.applicant",
          "staff.col.programme",
          "decide.deferrals.col.move",
          "decide.deferrals.col.requested",
          "decide.deferrals.col.reason",
          "decide.deferrals.col.seats",
        ]}
        row={(d) => {
          const free = seats[d.toIntake.id];
          return (
            <tr key={d.id} data-testid="staff-deferral" data-status={d.status}>
              <td>
                <a href={`/portal/staff/applications/${d.applicationId}#deferrals`}>
                  {d.applicant.fullName}
                </a>
              </td>
              <td>
                {d.program.code} · {d.program.name}
              </td>
              <td>
                {t("decide.deferrals.move", { from: d.fromIntake.term, to: d.toIntake.term })}
                {d.status !== "requested" &&
                  ` (${t(`decide.deferrals.status.${d.status}` as MessageKey)})`}
              </td>
              <td>{formatDate(d.requestedAt)}</td>
              <td class="statement">{d.reason ?? "—"}</td>
              <td data-testid="staff-deferral-seats" data-available={free?.available}>
                {d.status !== "requested"
                  ? "—"
                  : free
                    ? t("decide.deferrals.free", {
                        available: free.available,
                        capacity: free.capacity,
                      })
                    : t("common.loading")}
              </td>
            </tr>
          );
        }}
      />
    </StaffLayout>
  );
}
