import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import { OFFICE_ROUTES } from "../office/routes.ts";
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { SecretOnce } from "./SecretOnce.tsx";

/**
 * One endpoint (admins): turned off and on, its secret rotated (the new one shown once), and its
 * delivery log, newest first, each finished delivery sent again on request (same webhook-id).
 */
export default function WebhookPage() {
  const session = useStaffSession();
  const id = pathId();
  const [offset, setOffset] = useState(0);
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState("");
  const [secret, setSecret] = useState<WebhookEndpointWithSecret | null>(null);
  const endpoint = useLoad(session, () => officeApi.webhook(id), [reloads]);
  const deliveries = useLoad(session, () => officeApi.deliveries(id, offset), [offset, reloads]);
  const toggle = useSend<WebhookEndpoint>();
  const rotate = useSend<WebhookEndpointWithSecret>();
  const redeliver = useSend<WebhookDelivery>();
  const changed = (message: string) => {
    setNotice(message);
    setReloads((n) => n + 1);
  };
  const w = endpoint.data;
  const problem = toggle.problem ?? rotate.problem ?? redeliver.problem;
  return (
    <StaffLayout session={session}>
      <p>
        <a href={OFFICE_ROUTES.staffWebhooks}>{t("office.webhooks.back")}</a>
      </p>
      {notice && (
        <p role="status" class="notice" data-testid="webhook-notice">
          {notice}
        </p>
      )}
      {secret && <SecretOnce secret={secret.secret} url={secret.url} />}
      {problem && <OfficeProblem problem={problem} />}
      <Loaded loading={!w} failure={endpoint.failure}>
        {w && (
          <section class="panel" aria-labelledby="webhook-title">
            <h2 id="webhook-title" class="address">
              {w.url}
            </h2>
            <p data-testid="webhook-state" data-enabled={w.enabled}>
              {t(w.enabled ? "office.webhook.enabledText" : "office.webhook.disabledText")}
            </p>
            <p class="muted">
              {w.eventTypes.includes("*") ? t("office.webhook.allEvents") : w.eventTypes.join(", ")}
            </p>
            <div class="actions">
              <button
                type="button"
                class={w.enabled ? "secondary" : ""}
                disabled={toggle.busy}
                data-testid="webhook-toggle"
                onClick={async () => {
                  if (
                    await toggle.send(() => officeApi.updateWebhook(id, { enabled: !w.enabled }))
                  ) {
                    changed(t(w.enabled ? "office.webhook.turnedOff" : "office.webhook.turnedOn"));
                  }
                }}
              >
                {t(w.enabled ? "office.webhook.disable" : "office.webhook.enable")}
              </button>
              <button
                type="button"
                class="secondary"
                disabled={rotate.busy}
                data-testid="webhook-rotate"
                onClick={async () => {
                  const done = await rotate.send(() => officeApi.rotateSecret(id));
                  if (done) setSecret(done.data);
                }}
              >
                {t("office.webhook.rotate")}
              </button>
            </div>
          </section>
        )}
      </Loaded>
      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">{t("office.deliveries.title")}</h2>
        <Loaded
          loading={!deliveries.data}
          failure={deliveries.failure}
          empty={deliveries.data?.count === 0}
          emptyText={t("office.deliveries.none")}
        >
          {deliveries.data && (
            <>
              <div class="table-scroll">
                <table data-testid="webhook-deliveries">
                  <caption class="visually-hidden">{t("office.deliveries.title")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("office.deliveries.event")}</th>
                      <th scope="col">{t("office.programmes.stateColumn")}</th>
                      <th scope="col">{t("office.deliveries.attempts")}</th>
                      <th scope="col">{t("office.deliveries.last")}</th>
                      <th scope="col">{t("office.actions")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {deliveries.data.results.map((d) => (
                      <tr key={d.id} data-testid="webhook-delivery" data-status={d.status}>
                        <th scope="row">
                          <code>{d.eventType}</code>
                          <span class="muted block">{formatDate(d.createdAt)}</span>
                        </th>
                        <td>{t(`office.deliveries.status.${d.status}` as MessageKey)}</td>
                        <td>{d.attempts}</td>
                        <td>
                          {d.lastStatusCode === null
                            ? (d.lastError ?? "—")
                            : t("office.deliveries.answered", { code: d.lastStatusCode })}
                        </td>
                        <td>
                          {d.status !== "pending" && (
                            <button
                              type="button"
                              class="secondary"
                              disabled={redeliver.busy}
                              data-testid="webhook-redeliver"
                              onClick={async () => {
                                if (await redeliver.send(() => officeApi.redeliver(id, d.id))) {
                                  changed(t("office.deliveries.queued"));
                                }
                              }}
                            >
                              {t("office.deliveries.redeliver")}
                              <span class="visually-hidden">
                                {" "}
                                {t("office.deliveries.redeliverOne", {
                                  event: d.eventType,
                                  when: formatDate(d.createdAt),
                                })}
                              </span>
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager offset={offset} count={deliveries.data.count} onGo={setOffset} />
            </>
          )}
        </Loaded>
      </section>
    </StaffLayout>
  );
}
