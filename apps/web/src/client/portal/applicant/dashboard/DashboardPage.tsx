import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Application, Condition, EmailVerification, Interview } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSession } from "../../ui/session.ts";
import { useLoaded } from "../application/useApplication.ts";
import { ApplicationCard } from "./ApplicationCard.tsx";

const WITH_CONDITIONS = new Set(["conditionally_offered", "accepted"]);

/**
 * The conditions of every application that has some to meet, by application; null until they
 * are read, so no card says a next step the conditions would change.
 */
function useConditions(applications: Application[] | null) {
  const [byApplication, setByApplication] = useState<Record<string, Condition[]> | null>(null);
  useEffect(() => {
    if (applications === null) return;
    const wanted = applications.filter((a) => WITH_CONDITIONS.has(a.status));
    Promise.all(wanted.map((a) => admissions.conditions(a.id))).then((answers) => {
      const found: Record<string, Condition[]> = {};
      for (const answer of answers)
        if (answer.ok) found[answer.data.applicationId] = answer.data.conditions;
      setByApplication(found);
    });
  }, [applications]);
  return byApplication;
}

/** First steps for someone with no application yet: confirm the address, details, a programme. */
function FirstSteps({ verification }: { verification: EmailVerification | null }) {
  return (
    <section class="panel" aria-labelledby="first-steps">
      <h2 id="first-steps">{t("dashboard.firstSteps")}</h2>
      <ol>
        {verification && !verification.verified && (
          <li>
            {t("dashboard.stepVerify")}{" "}
            <a href="/portal/account">{t("dashboard.stepVerifyLink")}</a>
          </li>
        )}
        <li>
          <a href="/account/profile">{t("dashboard.stepProfile")}</a>
        </li>
        <li>
          <a href="/portal/" data-testid="dashboard-find">
            {t("dashboard.stepFind")}
          </a>
        </li>
      </ol>
    </section>
  );
}

/**
 * After signing in: each application with its status, its next step and its deadline, soonest
 * first among those asking something; or, with none yet, what to do first.
 */
export default function DashboardPage() {
  const session = useSession(true);
  const ready = session.status === "signed-in";
  const applications = useLoaded(ready, admissions.applications);
  const interviews = useLoaded(ready, () => admissions.interviews(""));
  const verification = useLoaded(ready, admissions.verification);
  const list = applications.data?.results ?? null;
  const conditions = useConditions(list);
  const interviewOf = (id: string): Interview[] =>
    (interviews.data?.results ?? []).filter((i) => i.applicationId === id);
  // The next steps depend on the interviews and the conditions too: the cards wait for them (a
  // failure to read them leaves the steps the status alone says).
  const stepsKnown = (interviews.data !== null || interviews.failure !== null) && conditions;
  return (
    <Layout session={session}>
      <div data-testid="dashboard">
        {applications.failure && <ProblemNotice problem={applications.failure.problem} />}
        {list?.length === 0 && (
          <>
            <p>{t("dashboard.none")}</p>
            <FirstSteps verification={verification.data} />
          </>
        )}
        {list && list.length > 0 && !stepsKnown && <p aria-busy="true">{t("common.loading")}</p>}
        {list && list.length > 0 && stepsKnown && (
          <ul class="cards" data-testid="application-list">
            {list.map((a) => (
              <ApplicationCard
                key={a.id}
                application={a}
                interviews={interviewOf(a.id)}
                conditions={conditions?.[a.id] ?? []}
              />
            ))}
          </ul>
        )}
        {list && list.length > 0 && verification.data && !verification.data.verified && (
          <p class="notice">
            {t("dashboard.stepVerify")}{" "}
            <a href="/portal/account">{t("dashboard.stepVerifyLink")}</a>
          </p>
        )}
      </div>
    </Layout>
  );
}
