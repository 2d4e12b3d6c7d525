import type { Transition } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDate, t } from "../../../i18n/use.ts";

/**
 * The notes the platform writes itself (fixed English: admissions' SYSTEM_NOTES, which
 * test/portal-problems.test.ts holds this table to), said in the page's words; null: said
 * already by the move itself.
 */
export const SYSTEM_NOTE_KEYS: Record<string, MessageKey | null> = {
  "Reviewer assigned": null,
  "Not answered before the deadline": "timeline.offerNotAnswered",
  "A condition was not met by its due date": "timeline.conditionOverdue",
};
export const CONDITION_NOT_MET = "Condition not met: ";

/** A move's note in words: the platform's own, said here; a person's, quoted as theirs. */
function noteOf(move: Transition): string | null {
  const note = move.reason?.trim();
  if (!note) return null;
  if (note in SYSTEM_NOTE_KEYS) {
    const key = SYSTEM_NOTE_KEYS[note];
    return key ? t(key) : null;
  }
  if (note.startsWith(CONDITION_NOT_MET)) {
    return t("timeline.conditionNotMet", { condition: note.slice(CONDITION_NOT_MET.length) });
  }
  return move.actor.role === "applicant"
    ? t("timeline.byYou", { note })
    : t("timeline.byOffice", { note });
}

/** Moves the applicant made themselves, said as theirs ("You accepted the offer."). */
const YOURS = new Set(["accepted", "declined", "withdrawn"]);

const moveText = (move: Transition) =>
  move.from === move.to
    ? t("timeline.moved")
    : move.actor.role === "applicant" && YOURS.has(move.to)
      ? t(`timeline.you.${move.to}` as MessageKey)
      : t(`timeline.to.${move.to}` as MessageKey);

/** The application's history in words, oldest first (the API's order). */
export function Timeline({ history }: { history: Transition[] }) {
  return (
    <ol class="timeline" data-testid="timeline">
      {history.map((move) => {
        const note = noteOf(move);
        return (
          <li key={move.id}>
            <time dateTime={move.at}>{formatDate(move.at)}</time> <strong>{moveText(move)}</strong>
            {note && <p>{note}</p>}
          </li>
        );
      })}
    </ol>
  );
}
