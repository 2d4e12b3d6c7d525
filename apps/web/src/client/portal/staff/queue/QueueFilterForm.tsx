import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import type { StaffSession } from "../ui/session.ts";
import { AWAITING, FLAGS, PAYMENT_STATES, type QueueFilters } from "./filters.ts";

const STATUS_CHOICES = [
  AWAITING,
  "",
  "submitted",
  "under_review",
  "interviewing",
  "offered",
  "conditionally_offered",
  "waitlisted",
  "accepted",
  "rejected",
];

const FIELDS: FormFields = {
  scoreMin: { id: "queue-score-min", message: "office.queue.error.score" },
  scoreMax: { id: "queue-score-max", message: "office.queue.error.score" },
};

const isScore = (text: string) => text.trim() === "" || /^\d+([.,]\d+)?$/.test(text.trim());

/**
 * The office queue's filters, applied together when the form is sent (the search's Enter
 * sends it too): status (with the counts per status), programme and intake, reviewer, payment
 * state, score range, flags and the search.
 */
export function QueueFilterForm({
  session,
  filters,
  counts,
  onApply,
}: {
  session: StaffSession;
  filters: QueueFilters;
  counts: Record<string, number> | null;
  onApply: (next: QueueFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const [problem, setProblem] = useState<ReturnType<typeof localProblem>>(null);
  const programmes = useLoad(session, () => officeApi.programmes("?limit=100&ordering=name"));
  const programme = useLoad(
    session,
    () =>
      draft.programId
        ? officeApi.programme(draft.programId)
        : Promise.resolve({ ok: true as const, status: 200, etag: null, data: null }),
    [draft.programId],
  );
  const staff = useLoad(session, () => officeApi.staff());
  const set = (patch: Partial<QueueFilters>) => setDraft((now) => ({ ...now, ...patch }));
  const submit = (event: Event) => {
    event.preventDefault();
    const bad = (["scoreMin", "scoreMax"] as const).filter((k) => !isScore(draft[k]));
    setProblem(localProblem(bad));
    if (bad.length === 0) {
      const score = (text: string) => text.trim().replace(",", ".");
      onApply({
        ...draft,
        scoreMin: score(draft.scoreMin),
        scoreMax: score(draft.scoreMax),
        search: draft.search.trim(),
      });
    }
  };
  const total = (status: string) =>
    counts
      ? status
          .split(",")
          .filter(Boolean)
          .reduce((n, s) => n + (counts[s] ?? 0), 0)
      : null;
  const allCount = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : null;
  const select = (
    id: string,
    label: string,
    value: string,
    onValue: (v: string) => void,
    options: [string, string][],
  ) => (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onValue(inputValue(e))}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form
      class="filters"
      onSubmit={submit}
      noValidate
      aria-label={t("office.queue.filters")}
      data-testid="queue-filter"
    >
      {problem && <OfficeProblem problem={problem} fields={FIELDS} />}
      <div class="field grow">
        <label for="queue-search">{t("staff.queue.search")}</label>
        <input
          id="queue-search"
          type="search"
          maxLength={100}
          value={draft.search}
          onInput={(e) => set({ search: inputValue(e) })}
          data-testid="queue-search"
        />
      </div>
      {select(
        "queue-status",
        t("office.queue.status"),
        draft.status,
        (status) => set({ status }),
        STATUS_CHOICES.map((s) => {
          const label =
            s === AWAITING
              ? t("office.queue.awaiting")
              : s === ""
                ? t("office.queue.everyStatus")
                : t(`status.${s}` as MessageKey);
          const n = s === "" ? allCount : total(s);
          return [s, n === null ? label : t("office.queue.withCount", { label, count: n })];
        }),
      )}
      {select(
        "queue-programme",
        t("staff.col.programme"),
        draft.programId,
        (programId) => set({ programId, intakeId: "" }),
        [
          ["", t("office.queue.anyProgramme")],
          ...(programmes.data?.results ?? []).map((p): [string, string] => [
            p.id,
            `${p.code} · ${p.name}`,
          ]),
        ],
      )}
      {draft.programId &&
        select(
          "queue-intake",
          t("office.queue.intake"),
          draft.intakeId,
          (intakeId) => set({ intakeId }),
          [
            ["", t("office.queue.anyIntake")],
            ...(programme.data?.intakes ?? []).map((i): [string, string] => [i.id, i.term]),
          ],
        )}
      {select(
        "queue-reviewer",
        t("office.queue.reviewer"),
        draft.reviewerId,
        (reviewerId) => set({ reviewerId }),
        [
          ["", t("office.queue.anyReviewer")],
          ...(staff.data?.results ?? []).map((u): [string, string] => [u.id, u.fullName]),
        ],
      )}
      {select(
        "queue-payment",
        t("office.queue.payment"),
        draft.paymentState,
        (paymentState) => set({ paymentState }),
        [
          ["", t("office.queue.anyPayment")],
          ...PAYMENT_STATES.map((s): [string, string] => [
            s,
            t(`office.payment.state.${s}` as MessageKey),
          ]),
        ],
      )}
      {select("queue-flag", t("office.queue.flag"), draft.flag, (flag) => set({ flag }), [
        ["", t("office.queue.anyFlag")],
        ...FLAGS.map((f): [string, string] => [f, t(`office.flag.${f}` as MessageKey)]),
      ])}
      <fieldset class="field score-range">
        <legend>{t("office.queue.score")}</legend>
        <div class="inline-fields">
          <div class="field">
            <label for="queue-score-min">{t("office.queue.scoreMin")}</label>
            <input
              id="queue-score-min"
              class="w4"
              inputMode="decimal"
              value={draft.scoreMin}
              aria-invalid={fieldMessage(problem, FIELDS, "scoreMin") ? true : undefined}
              onInput={(e) => set({ scoreMin: inputValue(e) })}
            />
          </div>
          <div class="field">
            <label for="queue-score-max">{t("office.queue.scoreMax")}</label>
            <input
              id="queue-score-max"
              class="w4"
              inputMode="decimal"
              value={draft.scoreMax}
              aria-invalid={fieldMessage(problem, FIELDS, "scoreMax") ? true : undefined}
              onInput={(e) => set({ scoreMax: inputValue(e) })}
            />
          </div>
        </div>
      </fieldset>
      <div class="filter-actions">
        <button type="submit" data-testid="queue-search-submit">
          {t("office.queue.apply")}
        </button>
      </div>
    </form>
  );
}
