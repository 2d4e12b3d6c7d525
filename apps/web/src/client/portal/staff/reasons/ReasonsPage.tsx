import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import { OFFICE_ROUTES } from "../office/routes.ts";
import type { Reason } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { NewReasonForm, REASON_KINDS } from "./NewReasonForm.tsx";

/**
 * The decision reasons (admins): the codes a rejection, a withdrawal or a decline may carry.
 * One list for every programme (the API keeps one); codes are never deleted, only turned off,
 * so the history keeps its words.
 */
export default function ReasonsPage() {
  const session = useStaffSession();
  const [reloads, setReloads] = useState(0);
  const { data, failure, loading } = useLoad(session, () => officeApi.reasons(), [reloads]);
  const toggle = useSend<Reason>();
  const setActive = async (reason: Reason) => {
    const done = await toggle.send(() =>
      officeApi.updateReason(reason, { active: !reason.active }),
    );
    if (done) setReloads((n) => n + 1);
  };
  return (
    <StaffLayout session={session}>
      <p>
        <a href={OFFICE_ROUTES.staffProgrammes}>{t("office.programmes.back")}</a>
      </p>
      {toggle.problem && <OfficeProblem problem={toggle.problem} />}
      <Loaded loading={loading && !data} failure={failure}>
        {data &&
          REASON_KINDS.map((kind) => {
            const reasons = data.results.filter((r) => r.kind === kind);
            return (
              <section
                key={kind}
                aria-labelledby={`reasons-${kind}`}
                data-testid={`reasons-${kind}`}
              >
                <h2 id={`reasons-${kind}`}>{t(`office.reasons.kind.${kind}` as MessageKey)}</h2>
                {reasons.length === 0 ? (
                  <p>{t("office.reasons.none")}</p>
                ) : (
                  <div class="table-scroll">
                    <table>
                      <caption class="visually-hidden">
                        {t(`office.reasons.kind.${kind}` as MessageKey)}
                      </caption>
                      <thead>
                        <tr>
                          <th scope="col">{t("office.reasons.label")}</th>
                          <th scope="col">{t("office.reasons.code")}</th>
                          <th scope="col">{t("office.programmes.stateColumn")}</th>
                          <th scope="col">{t("office.actions")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {reasons.map((reason) => (
                          <tr
                            key={reason.code}
                            data-testid="reason"
                            data-active={reason.active}
                            data-label={reason.label}
                          >
                            <th scope="row">{reason.label}</th>
                            <td>
                              <code>{reason.code}</code>
                            </td>
                            <td>
                              {t(reason.active ? "office.reasons.inUse" : "office.reasons.off")}
                            </td>
                            <td>
                              <button
                                type="button"
                                class="secondary"
                                disabled={toggle.busy}
                                onClick={() => setActive(reason)}
                                data-testid="reason-toggle"
                              >
                                {t(
                                  reason.active
                                    ? "office.reasons.turnOff"
                                    : "office.reasons.turnOn",
                                )}
                                <span class="visually-hidden">
                                  {" "}
                                  {t(
                                    reason.active
                                      ? "office.reasons.turnOffOne"
                                      : "office.reasons.turnOnOne",
                                    { label: reason.label },
                                  )}
                                </span>
                              </button>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </section>
            );
          })}
      </Loaded>
      <section aria-labelledby="reason-new">
        <h2 id="reason-new">{t("office.reasons.new")}</h2>
        <NewReasonForm onCreated={() => setReloads((n) => n + 1)} />
      </section>
    </StaffLayout>
  );
}
