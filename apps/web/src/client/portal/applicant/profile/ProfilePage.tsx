import { useEffect, useState } from "preact/hooks";
import { account } from "../../api/account.ts";
import type { Profile } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { useSend } from "../../ui/useForm.ts";
import { AccountLinks } from "../account/AccountLinks.tsx";
import { type ProfileForm, toDetails, toForm } from "./form.ts";
import { ProfileFields, profileSummaryFields } from "./ProfileFields.tsx";
import { ProfileHistory } from "./ProfileHistory.tsx";

/** The applicant's personal details (each new application is prefilled from them). */
export default function ProfilePage() {
  const session = useSession(true);
  const [form, setForm] = useState<ProfileForm | null>(null);
  const [saved, setSaved] = useState<Profile | null>(null);
  const { busy, problem, send } = useSend<Profile>();
  useEffect(() => {
    if (session.status !== "signed-in") return;
    account.profile().then((answer) => {
      if (answer.ok) setForm(toForm(answer.data));
    });
  }, [session.status]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!form) return;
    setSaved(null);
    const answer = await send(() => account.replaceProfile(toDetails(form)));
    if (answer) {
      setSaved(answer.data);
      setForm(toForm(answer.data));
    }
  };
  // A change that crossed another one (two tabs saving at once): nothing is lost, say so kindly.
  const conflict = problem?.code === "VERSION_CONFLICT";
  return (
    <Layout session={session}>
      {session.status === "signed-in" && (
        <>
          <AccountLinks />
          {form && (
            <form onSubmit={submit} class="form" noValidate data-testid="profile-form">
              {conflict ? (
                <p class="problem" role="alert" data-testid="profile-conflict">
                  {t("profile.conflict")}
                </p>
              ) : (
                problem && (
                  <ProblemNotice
                    problem={problem}
                    fields={profileSummaryFields()}
                    testId="profile-problem"
                  />
                )
              )}
              {saved && !busy && (
                <p role="status" data-testid="profile-saved">
                  {t("profile.saved")}
                </p>
              )}
              <ProfileFields form={form} problem={problem} onChange={setForm} />
              <button type="submit" disabled={busy} data-testid="profile-save">
                {t("profile.save")}
              </button>
            </form>
          )}
          <ProfileHistory key={saved?.version ?? 0} />
        </>
      )}
    </Layout>
  );
}
