import { useState } from "preact/hooks";
import { admissions, files } from "../../../api/admissions.ts";
import type { Interview } from "../../../api/types.ts";
import type { MessageKey } from "../../../i18n/index.ts";
import { formatDate, t } from "../../../i18n/use.ts";
import { Field } from "../../../ui/Field.tsx";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../../ui/useForm.ts";

/**
 * The interview the office invited the applicant to: when, where (a place, or a video link),
 * its state; confirm, or ask for another time with a note; the calendar file. The office picks
 * the slot (the API has the applicant confirm or ask again, not choose among slots).
 */
export function InterviewPanel({
  interview,
  onChange,
}: {
  interview: Interview;
  onChange: (i: Interview) => void;
}) {
  const { busy, problem, send } = useSend<Interview>();
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState("");
  const [said, setSaid] = useState<MessageKey | null>(null);
  const minutes = Math.round(
    (Date.parse(interview.endsAt) - Date.parse(interview.startsAt)) / 60_000,
  );
  const past = Date.parse(interview.startsAt) <= Date.now();
  const open = !past && (interview.status === "invited" || interview.status === "confirmed");
  const act = async (
    run: () => ReturnType<typeof admissions.confirmInterview>,
    done: MessageKey,
  ) => {
    const answer = await send(run);
    if (!answer) return;
    setSaid(done);
    setAsking(false);
    onChange(answer.data);
  };
  return (
    <section class="panel" aria-labelledby="interview-heading" data-testid="interview">
      <h2 id="interview-heading">{t("interview.heading")}</h2>
      <dl class="summary" data-testid="interview-slot" data-status={interview.status}>
        <div>
          <dt>{t("interview.when")}</dt>
          <dd>
            <time dateTime={interview.startsAt}>{formatDate(interview.startsAt)}</time> (
            {t("interview.length", { minutes })})
          </dd>
        </div>
        <div>
          <dt>{t("interview.where")}</dt>
          <dd>
            {interview.meetingUrl ? (
              <>
                {t("interview.online")} <a href={interview.meetingUrl}>{interview.meetingUrl}</a>
              </>
            ) : (
              interview.location
            )}
          </dd>
        </div>
      </dl>
      <p>{past ? t("interview.past") : t(`interview.state.${interview.status}` as MessageKey)}</p>
      {interview.cancelReason && (
        <p>{t("interview.cancelReason", { reason: interview.cancelReason })}</p>
      )}
      {said && (
        <p role="status" data-testid="interview-done">
          {t(said)}
        </p>
      )}
      {problem && <ProblemNotice problem={problem} testId="interview-problem" />}
      {open && interview.status === "invited" && (
        <p class="actions">
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act(() => admissions.confirmInterview(interview.id), "interview.confirmed")
            }
            data-testid="interview-confirm"
          >
            {t("interview.confirm")}
          </button>
        </p>
      )}
      {open && !asking && (
        <p>
          <button
            type="button"
            class="secondary"
            onClick={() => setAsking(true)}
            data-testid="interview-reschedule"
          >
            {t("interview.askOther")}
          </button>
        </p>
      )}
      {open && asking && (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => admissions.askForAnotherTime(interview.id, note), "interview.requested");
          }}
        >
          <Field
            id="interview-note"
            label={t("interview.note")}
            hint={t("interview.noteHint")}
            rows={3}
            maxLength={2000}
            value={note}
            onInput={(e) => setNote(inputValue(e))}
            data-testid="interview-note"
          />
          <button type="submit" disabled={busy} data-testid="interview-send-request">
            {t("interview.sendRequest")}
          </button>
        </form>
      )}
      {interview.status !== "cancelled" && (
        <p>
          <a
            href={files.calendar(interview.id)}
            download="interview.ics"
            data-testid="interview-calendar"
          >
            {t("interview.calendar")}
          </a>
        </p>
      )}
    </section>
  );
}
