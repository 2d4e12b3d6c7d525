import type { User } from "@platform/admissions/models";
import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";

/**
 * The panel, chosen from the active staff accounts: one checkbox each (Space ticks), with a
 * box that narrows the list by name for a large office.
 */
export function PanelPicker({
  staff,
  chosen,
  onChange,
  error,
}: {
  staff: User[];
  chosen: string[];
  onChange: (panel: string[]) => void;
  error?: string;
}) {
  const [filter, setFilter] = useState("");
  const shown = staff.filter((u) => u.fullName.toLowerCase().includes(filter.trim().toLowerCase()));
  const toggle = (id: string) =>
    onChange(chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);
  return (
    <fieldset id="slot-panel" aria-describedby={error ? "slot-panel-error" : "slot-panel-hint"}>
      <legend>{t("decide.slot.panel")}</legend>
      <p class="hint" id="slot-panel-hint">
        {t("decide.slot.panelHint", { count: chosen.length })}
      </p>
      {error && (
        <p class="field-error" id="slot-panel-error">
          {error}
        </p>
      )}
      {staff.length > 8 && (
        <div class="field">
          <label for="slot-panel-filter">{t("decide.slot.panelFilter")}</label>
          <input
            id="slot-panel-filter"
            type="search"
            value={filter}
            onInput={(e) => setFilter(inputValue(e))}
          />
        </div>
      )}
      {shown.map((u) => (
        <label key={u.id} class="choice">
          <input
            type="checkbox"
            checked={chosen.includes(u.id)}
            onChange={() => toggle(u.id)}
            data-testid="panel-member"
            data-user-id={u.id}
          />{" "}
          {u.fullName}{" "}
          <span class="muted">
            ({t(u.role === "admin" ? "staff.role.admin" : "staff.role.reviewer")})
          </span>
        </label>
      ))}
    </fieldset>
  );
}
