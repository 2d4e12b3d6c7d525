import type { Transition } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";

/** The application's history as a timeline, oldest first (the API's order). */
export function Timeline({ history }: { history: Transition[] }) {
  return (
    <ol class="timeline" data-testid="timeline">
      {history.map((move) => (
        <li key={move.id}>
          <time dateTime={move.at}>{formatDate(move.at)}</time>{" "}
          <strong>{t(`status.${move.to}` as MessageKey)}</strong>{" "}
          <span class="muted">{t(`actor.${move.actor.role}` as MessageKey)}</span>
          {move.reason && <p>{move.reason}</p>}
        </li>
      ))}
    </ol>
  );
}
