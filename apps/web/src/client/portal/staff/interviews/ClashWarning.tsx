import { t } from "../../i18n/use.ts";
import { formatSpan } from "../ui/format.ts";
import type { Clash } from "./useClashes.ts";

/**
 * The panel members already on an interview at that time, each with that interview's time and
 * a link to it. A polite live region: it is said when it changes, without taking the focus.
 */
export function ClashWarning({ clashes, names }: { clashes: Clash[]; names: Map<string, string> }) {
  return (
    <div aria-live="polite" data-testid="clash-region">
      {clashes.length > 0 && (
        <div class="warning" data-testid="interview-clash">
          <p>
            <strong>{t("decide.clash.title")}</strong>
          </p>
          <ul>
            {clashes.map((clash) => (
              <li key={`${clash.userId}-${clash.interviewId}`}>
                {t("decide.clash.busy", {
                  name: names.get(clash.userId) ?? t("decide.clash.someone"),
                  when: formatSpan(clash.startsAt, clash.endsAt),
                })}{" "}
                <a href={`/portal/staff/interviews/${clash.interviewId}`}>
                  {t("decide.clash.see")}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
