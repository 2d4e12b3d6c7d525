import type { Interview, User } from "@platform/admissions/models";
import { useState } from "preact/hooks";
import type { ApiAnswer } from "../../api/client.ts";
import { t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { FieldError, type FieldRule, FormProblem, fieldErrors } from "../ui/FormProblem.tsx";
import { ClashWarning } from "./ClashWarning.tsx";
import { fromLocalInput, localZone, minutesOf, toLocalInput } from "./format.ts";
import { PanelPicker } from "./PanelPicker.tsx";
import { useClashes } from "./useClashes.ts";

/** What the form sends: a new slot's fields, or a move's (no panel: it stays). */
export type SlotFields = {
  startsAt: string;
  durationMinutes: number;
  location?: string;
  meetingUrl?: string;
  panel: string[];
};

const RULES: FieldRule[] = [
  { path: "/body/startsAt", id: "slot-start", message: "decide.slot.startError" },
  { path: "/body/durationMinutes", id: "slot-duration", message: "decide.slot.durationError" },
  { path: "/body/location", id: "slot-location", message: "decide.slot.locationError" },
  { path: "/body/meetingUrl", id: "slot-meeting-url", message: "decide.slot.urlError" },
  { path: "/body/panel", id: "slot-panel", message: "decide.slot.panelError" },
].map((rule) => ({ ...rule, message: t(rule.message as Parameters<typeof t>[0]) }));
/** The API's "give a place or a link, not both or neither" names the whole body. */
const WHERE_RULE = (id: string): FieldRule => ({
  path: "/body",
  id,
  message: t("decide.slot.whereError"),
});

/**
 * A slot's time, length and place or video link, and (for a new one) its panel, with the
 * panel's clashes warned of as it is filled in. Used to open a slot and to move one. The API
 * judges everything (422 by field, 409 INTERVIEW_CLASH); each refusal is said beside its field.
 */
export function SlotForm({
  interview,
  staff,
  save,
  onSaved,
  submitLabel,
  testId,
  headingLevel,
}: {
  /** The interview being moved; none for a new slot. */
  interview?: Interview;
  /** The staff to choose the panel from (a new slot only). */
  staff?: User[];
  save: (fields: SlotFields) => Promise<ApiAnswer<Interview>>;
  onSaved: (saved: Interview) => void;
  submitLabel: string;
  testId: string;
  /** The error summary's heading level (2 on a page of its own, 3 under a section's heading). */
  headingLevel: 2 | 3;
}) {
  const [start, setStart] = useState(interview ? toLocalInput(interview.startsAt) : "");
  const [duration, setDuration] = useState(interview ? String(minutesOf(interview)) : "30");
  const [online, setOnline] = useState(interview ? interview.meetingUrl !== null : false);
  const [location, setLocation] = useState(interview?.location ?? "");
  const [meetingUrl, setMeetingUrl] = useState(interview?.meetingUrl ?? "");
  const [panel, setPanel] = useState<string[]>(interview?.panel.map((p) => p.id) ?? []);
  const { busy, problem, send } = useSend<Interview>();
  const fields: SlotFields = {
    startsAt: fromLocalInput(start),
    durationMinutes: duration.trim() === "" ? Number.NaN : Number(duration),
    ...(online ? { meetingUrl: meetingUrl.trim() } : { location }),
    panel,
  };
  const clashes = useClashes(fields, interview?.id);
  const whereId = online ? "slot-meeting-url" : "slot-location";
  const rules = [...RULES, WHERE_RULE(whereId)];
  const errors = fieldErrors(problem, rules);
  const names = new Map(
    (staff ?? interview?.panel ?? []).map((person) => [person.id, person.fullName]),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    // NaN goes as null: the API's 422 names the field.
    const saved = await send(() => save(fields));
    if (saved) onSaved(saved.data);
  };
  const field = (id: string, hint?: string) => ({
    id,
    "aria-invalid": errors.has(id) ? true : undefined,
    "aria-describedby":
      [hint ? `${id}-hint` : "", errors.has(id) ? `${id}-error` : ""].filter(Boolean).join(" ") ||
      undefined,
  });
  const errorOf = (id: string) => <FieldError id={id} errors={errors} />;
  return (
    <form class="form" onSubmit={submit} noValidate data-testid={testId}>
      <FormProblem problem={problem} rules={rules} testId="slot-problem" level={headingLevel} />
      <div class="field">
        <label for="slot-start">{t("decide.slot.start")}</label>
        <p class="hint" id="slot-start-hint">
          {t("decide.slot.startHint", { zone: localZone() })}
        </p>
        {errorOf("slot-start")}
        <input
          {...field("slot-start", "hint")}
          type="datetime-local"
          value={start}
          onInput={(e) => setStart(inputValue(e))}
          data-testid="slot-start"
        />
      </div>
      <div class="field">
        <label for="slot-duration">{t("decide.slot.duration")}</label>
        <p class="hint" id="slot-duration-hint">
          {t("decide.slot.durationHint")}
        </p>
        {errorOf("slot-duration")}
        <input
          {...field("slot-duration", "hint")}
          type="number"
          inputMode="numeric"
          min={5}
          max={480}
          value={duration}
          onInput={(e) => setDuration(inputValue(e))}
          data-testid="slot-duration"
        />
      </div>
      <fieldset>
        <legend>{t("decide.slot.where")}</legend>
        {[false, true].map((isOnline) => (
          <label key={String(isOnline)} class="choice">
            <input
              type="radio"
              name="slot-mode"
              checked={online === isOnline}
              onChange={() => setOnline(isOnline)}
              data-testid={isOnline ? "slot-online" : "slot-in-person"}
            />{" "}
            {t(isOnline ? "decide.slot.online" : "decide.slot.inPerson")}
          </label>
        ))}
        {online ? (
          <div class="field">
            <label for="slot-meeting-url">{t("decide.slot.meetingUrl")}</label>
            <p class="hint" id="slot-meeting-url-hint">
              {t("decide.slot.meetingUrlHint")}
            </p>
            {errorOf("slot-meeting-url")}
            <input
              {...field("slot-meeting-url", "hint")}
              type="url"
              maxLength={500}
              value={meetingUrl}
              onInput={(e) => setMeetingUrl(inputValue(e))}
              data-testid="slot-meeting-url"
            />
          </div>
        ) : (
          <div class="field">
            <label for="slot-location">{t("decide.slot.location")}</label>
            {errorOf("slot-location")}
            <input
              {...field("slot-location")}
              type="text"
              maxLength={300}
              value={location}
              onInput={(e) => setLocation(inputValue(e))}
              data-testid="slot-location"
            />
          </div>
        )}
      </fieldset>
      {staff && (
        <PanelPicker
          staff={staff}
          chosen={panel}
          onChange={setPanel}
          error={errors.get("slot-panel")}
        />
      )}
      <ClashWarning clashes={clashes} names={names} />
      <button type="submit" disabled={busy} data-testid={`${testId}-save`}>
        {submitLabel}
      </button>
    </form>
  );
}
