import { useState } from "preact/hooks";
import { formatDate, t } from "../../i18n/use.ts";
import { officeApi } from "../office/api.ts";
import type { WebhookEndpointWithSecret } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { SecretOnce } from "./SecretOnce.tsx";
import { WebhookForm } from "./WebhookForm.tsx";

/** Webhook endpoints (admins): each with its events and state; a new one's secret shown once. */
export default function WebhooksPage() {
  const session = useStaffSession();
  const [adding, setAdding] = useState(false);
  const [made, setMade] = useState<WebhookEndpointWithSecret | null>(null);
  const [reloads, setReloads] = useState(0);
  const list = useLoad(session, () => officeApi.webhooks(), [reloads]);
  return (
    <StaffLayout session={session}>
      <p class="hint">{t("office.webhooks.intro")}</p>
      {made && <SecretOnce secret={made.secret} url={made.url} />}
      <Loaded
        loading={!list.data}
        failure={list.failure}
        empty={list.data?.results.length === 0}
        emptyText={t("office.webhooks.none")}
      >
        {list.data && (
          <div class="table-scroll">
            <table data-testid="webhooks">
              <caption class="visually-hidden">{t("page.staffWebhooks.title")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("office.webhook.url")}</th>
                  <th scope="col">{t("office.webhook.events")}</th>
                  <th scope="col">{t("office.programmes.stateColumn")}</th>
                  <th scope="col">{t("office.webhook.created")}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.results.map((w) => (
                  <tr key={w.id} data-testid="webhook" data-enabled={w.enabled}>
                    <th scope="row">
                      <a href={`/portal/staff/webhooks/${w.id}`}>{w.url}</a>
                      {w.description && <span class="muted block">{w.description}</span>}
                    </th>
                    <td>
                      {w.eventTypes.includes("*")
                        ? t("office.webhook.allEvents")
                        : w.eventTypes.join(", ")}
                    </td>
                    <td>{t(w.enabled ? "office.webhook.enabled" : "office.webhook.disabled")}</td>
                    <td>{formatDate(w.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      {adding ? (
        <WebhookForm
          onCancel={() => setAdding(false)}
          onCreated={(endpoint) => {
            setAdding(false);
            setMade(endpoint);
            setReloads((n) => n + 1);
          }}
        />
      ) : (
        <button type="button" onClick={() => setAdding(true)} data-testid="webhook-new">
          {t("office.webhook.new")}
        </button>
      )}
    </StaffLayout>
  );
}
