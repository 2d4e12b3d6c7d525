import type { ComponentChildren } from "preact";
import { t } from "../../i18n/use.ts";

export type SummaryRow = { label: string; value: ComponentChildren; changeHref?: string };

/**
 * GOV.UK's summary list: one answer a row, its question, and a "Change" link back to the page
 * that asks it (the question in the link for a screen reader: "Change Year of graduation").
 */
export function SummaryList({ rows }: { rows: SummaryRow[] }) {
  return (
    <dl class="summary-list">
      {rows.map((row) => (
        <div class="summary-row" key={row.label}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
          {row.changeHref && (
            <dd class="summary-action">
              <a href={row.changeHref}>
                {t("check.change")}
                <span class="visually-hidden"> {row.label}</span>
              </a>
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}
