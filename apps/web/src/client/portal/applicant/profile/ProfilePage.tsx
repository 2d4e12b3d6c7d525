import { useEffect, useState } from "preact/hooks";
import { account } from "../../api/account.ts";
import type { Profile } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { AccountLinks } from "../account/AccountLinks.tsx";
import { errorFor, type ProfileForm, toDetails, toForm } from "./form.ts";
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
  const field = (name: keyof ProfileForm, extra: Partial<Parameters<typeof Field>[0]> = {}) =>
    form && (
      <Field
        id={`profile-${name}`}
        label={t(`profile.${name}`)}
        value={form[name]}
        error={errorFor(problem, name, () => t("profile.badFormat"))}
        onInput={(e) => setForm({ ...form, [name]: inputValue(e) })}
        data-testid={`profile-${name}`}
        {...extra}
      />
    );
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
                problem && <ProblemNotice problem={problem} testId="profile-problem" />
              )}
              {saved && !busy && (
                <p role="status" data-testid="profile-saved">
                  {t("profile.saved")}
                </p>
              )}
              <fieldset>
                <legend>{t("profile.you")}</legend>
                {field("legalName", { autocomplete: "name" })}
                {field("preferredName", { autocomplete: "nickname" })}
                {field("dateOfBirth", { hint: t("profile.dateHint"), autocomplete: "bday" })}
                {field("nationality", { hint: t("profile.countryHint"), maxLength: 2 })}
                {field("phone", { type: "tel", hint: t("profile.phoneHint"), autocomplete: "tel" })}
              </fieldset>
              <fieldset>
                <legend>{t("profile.address")}</legend>
                {field("lines", { rows: 3, hint: t("profile.linesHint") })}
                {field("city", { autocomplete: "address-level2" })}
                {field("region", { autocomplete: "address-level1" })}
                {field("postcode", { autocomplete: "postal-code" })}
                {field("country", { hint: t("profile.countryHint"), maxLength: 2 })}
              </fieldset>
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
