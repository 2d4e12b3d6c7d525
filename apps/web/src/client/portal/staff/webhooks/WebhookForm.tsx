import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { WebhookEndpointWithSecret } from "../office/types.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";

/** The change feed's event types an endpoint may ask for (test/portal-office.test.ts: the API's list). */
export const EVENT_TYPES = [
  "application.created",
  "application.status_changed",
  "payment.succeeded",
  "payment.failed",
  "payment.expired",
  "payment.refunded",
  "document.uploaded",
  "document.reviewed",
  "document.deleted",
  "interview.invited",
  "interview.confirmed",
  "interview.reschedule_requested",
  "interview.rescheduled",
  "interview.cancelled",
] as const;

const FIELDS: FormFields = {
  url: { id: "webhook-url", message: "office.webhook.error.url" },
  description: { id: "webhook-description", message: "office.webhook.error.description" },
  eventTypes: { id: "webhook-all", message: "office.webhook.error.events" },
};

/** A new endpoint: where to, what for, which events (all, or those ticked). */
export function WebhookForm({
  onCreated,
  onCancel,
}: {
  onCreated: (made: WebhookEndpointWithSecret) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState("https://");
  const [description, setDescription] = useState("");
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<string[]>([]);
  const { busy, problem, send, setProblem } = useSend<WebhookEndpointWithSecret>();
  useEffect(() => document.getElementById("webhook-url")?.focus(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!all && events.length === 0) return setProblem(localProblem(["eventTypes"]));
    const body = {
      url: url.trim(),
      eventTypes: all ? ["*"] : events,
      ...(description.trim() ? { description: description.trim() } : {}),
    } as Parameters<typeof officeApi.createWebhook>[0];
    const made = await send(() => officeApi.createWebhook(body));
    if (made) onCreated(made.data);
  };
  return (
    <form class="form panel" onSubmit={submit} noValidate data-testid="webhook-form">
      <h2>{t("office.webhook.new")}</h2>
      {problem && <OfficeProblem problem={problem} fields={FIELDS} testId="webhook-problem" />}
      <Field
        id="webhook-url"
        label={t("office.webhook.url")}
        hint={t("office.webhook.urlHint")}
        value={url}
        maxLength={2000}
        error={fieldMessage(problem, FIELDS, "url")}
        onInput={(e) => setUrl(inputValue(e))}
      />
      <Field
        id="webhook-description"
        label={t("office.webhook.description")}
        value={description}
        maxLength={500}
        error={fieldMessage(problem, FIELDS, "description")}
        onInput={(e) => setDescription(inputValue(e))}
      />
      <fieldset class="field">
        <legend>{t("office.webhook.events")}</legend>
        {fieldMessage(problem, FIELDS, "eventTypes") && (
          <p class="field-error">{fieldMessage(problem, FIELDS, "eventTypes")}</p>
        )}
        <label class="choice">
          <input
            id="webhook-all"
            type="checkbox"
            checked={all}
            onChange={(e) => setAll((e.currentTarget as HTMLInputElement).checked)}
          />
          {t("office.webhook.allEvents")}
        </label>
        {!all &&
          EVENT_TYPES.map((type) => (
            <label key={type} class="choice">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) =>
                  setEvents((now) =>
                    (e.currentTarget as HTMLInputElement).checked
                      ? [...now, type]
                      : now.filter((x) => x !== type),
                  )
                }
              />
              <code>{type}</code>
            </label>
          ))}
      </fieldset>
      <div class="actions">
        <button type="submit" disabled={busy} data-testid="webhook-save">
          {t("office.webhook.create")}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t("office.cancel")}
        </button>
      </div>
    </form>
  );
}
