import { useEffect, useState } from "preact/hooks";
import { account } from "../../../api/account.ts";
import type { Profile } from "../../../api/types.ts";
import { t } from "../../../i18n/use.ts";
import { ProblemNotice } from "../../../ui/ProblemNotice.tsx";
import { useSend } from "../../../ui/useForm.ts";
import { useApplication } from "../../application/useApplication.ts";
import { type ProfileForm, toDetails, toForm } from "../../profile/form.ts";
import { ProfileFields, profileSummaryFields } from "../../profile/ProfileFields.tsx";
import { SaveAndReturn, SectionLayout } from "../SectionLayout.tsx";

/**
 * "Your details": the applicant's profile (one for every application), saved when they
 * return to the task list; the API's refusals sit beside their fields and in the summary.
 */
export default function DetailsPage() {
  const state = useApplication();
  const [form, setForm] = useState<ProfileForm | null>(null);
  const loading = useSend<Profile>();
  const saving = useSend<Profile>();
  useEffect(() => {
    if (state.session.status !== "signed-in") return;
    loading.send(account.profile).then((done) => done && setForm(toForm(done.data)));
  }, [state.session.status]);
  const save = async () =>
    form !== null && (await saving.send(() => account.replaceProfile(toDetails(form)))) !== null;
  const problem = saving.problem;
  return (
    <SectionLayout state={state}>
      {(application) => (
        <>
          <p>{t("details.intro")}</p>
          {loading.problem && <ProblemNotice problem={loading.problem} />}
          {form && (
            <form
              class="form"
              noValidate
              onSubmit={(e) => e.preventDefault()}
              data-testid="profile-form"
            >
              {problem && (
                <ProblemNotice
                  problem={problem}
                  fields={profileSummaryFields()}
                  testId="profile-problem"
                />
              )}
              <ProfileFields form={form} problem={problem} onChange={setForm} />
              <SaveAndReturn id={application.id} save={save} busy={saving.busy} />
            </form>
          )}
        </>
      )}
    </SectionLayout>
  );
}
