import type { Application, Interview } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { formatSpan } from "../ui/format.ts";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { interviewsApi } from "./api.ts";
import { isUpcoming } from "./format.ts";

/** How a slot reads in the list to choose from: when, where, who. */
const slotLabel = (slot: Interview) =>
  [
    formatSpan(slot.startsAt, slot.endsAt),
    slot.location ?? t("decide.interview.onlineShort"),
    slot.panel.map((p) => p.fullName).join(", "),
  ].join(" · ");

/**
 * An admin invites the application to one of the open slots still to come; the API moves it
 * to interviewing and emails the applicant the invitation with its calendar file. No open
 * slot: the way to open one.
 */
export function InviteForm({
  application,
  onInvited,
}: {
  application: Application;
  onInvited: (interview: Interview) => void;
}) {
  const [slots, setSlots] = useState<Interview[] | null>(null);
  const [chosen, setChosen] = useState("");
  const { busy, problem, send } = useSend<Interview>();
  useEffect(() => {
    interviewsApi.list({ status: "open", from: new Date().toISOString() }).then((a) => {
      const open = a.ok ? a.data.results.filter((slot) => isUpcoming(slot)) : [];
      setSlots(open);
      setChosen(open[0]?.id ?? "");
    });
  }, [application.id]);
  const submit = async (event: Event) => {
    event.preventDefault();
    const invited = await send(() => interviewsApi.invite(chosen, application.id));
    if (invited) onInvited(invited.data);
  };
  if (!slots) return <p aria-busy="true">{t("common.loading")}</p>;
  if (slots.length === 0) {
    return (
      <p data-testid="no-open-slots">
        {t("decide.invite.none")} <a href="/portal/staff/interviews/new">{t("decide.slots.new")}</a>
      </p>
    );
  }
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="invite-form">
      {problem && <StaffProblem problem={problem} testId="invite-problem" />}
      <div class="field">
        <label for="invite-slot">{t("decide.invite.slot")}</label>
        <select id="invite-slot" value={chosen} onChange={(e) => setChosen(inputValue(e))}>
          {slots.map((slot) => (
            <option key={slot.id} value={slot.id}>
              {slotLabel(slot)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={busy} data-testid="interview-invite">
        {t("decide.invite.submit")}
      </button>
    </form>
  );
}
