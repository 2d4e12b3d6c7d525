import { t } from "../../../i18n/use.ts";
import { inputValue } from "../../../ui/useForm.ts";

/** A date and time as typed in the GOV.UK pattern: day, month, year and a 24-hour time. */
export type DateTimeParts = { day: string; month: string; year: string; time: string };

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as the parts a person edits, in their own time zone. */
export function partsOf(iso: string | null, time = "00:00"): DateTimeParts {
  if (!iso) return { day: "", month: "", year: "", time };
  const d = new Date(iso);
  return {
    day: String(d.getDate()),
    month: String(d.getMonth() + 1),
    year: String(d.getFullYear()),
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}`,
  };
}

/** The parts as an ISO instant, or null when they name no real date and time. */
export function isoOf(parts: DateTimeParts): string | null {
  const [day, month, year] = [parts.day, parts.month, parts.year].map((v) => Number(v.trim()));
  const time = /^(\d{1,2}):(\d{2})$/.exec(parts.time.trim());
  if (!day || !month || !year || year < 1000 || !time) return null;
  const [hours, minutes] = [Number(time[1]), Number(time[2])];
  const d = new Date(year, month - 1, day, hours, minutes);
  const real = d.getDate() === day && d.getMonth() === month - 1 && hours < 24 && minutes < 60;
  return real ? d.toISOString() : null;
}

/** The browser's time zone, said beside every date the office types. */
export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Day, month, year and time in one fieldset, its error said once above them. */
export function DateTimeField({
  id,
  legend,
  value,
  onValue,
  error,
  withTime = true,
}: {
  id: string;
  legend: string;
  value: DateTimeParts;
  onValue: (next: DateTimeParts) => void;
  error?: string | undefined;
  /** Off: a day alone (the time stays what `value` has, midnight for a filter). */
  withTime?: boolean;
}) {
  const part = (name: keyof DateTimeParts, label: string, width: string) => (
    <div class="date-part">
      <label for={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        class={width}
        inputMode="numeric"
        value={value[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onInput={(e) => onValue({ ...value, [name]: inputValue(e) })}
      />
    </div>
  );
  return (
    <fieldset class="field date-field" id={id}>
      <legend>{legend}</legend>
      <p class="hint" id={`${id}-hint`}>
        {withTime ? t("office.date.hint", { zone: timeZone() }) : t("office.date.dayHint")}
      </p>
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <div class="date-parts">
        {part("day", t("office.date.day"), "w2")}
        {part("month", t("office.date.month"), "w2")}
        {part("year", t("office.date.year"), "w4")}
        {withTime && part("time", t("office.date.time"), "w4")}
      </div>
    </fieldset>
  );
}
