import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { ApiError } from "../../api/client.ts";
import type { ProgramDetail } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDay, formatMoney, t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { loginUrl, useSession } from "../../ui/session.ts";
import { useSend } from "../../ui/useForm.ts";

/** One program, its requirements and intakes; "Apply" starts a draft for an open intake. */
export default function ProgramPage() {
  const session = useSession();
  const [program, setProgram] = useState<ProgramDetail | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const { busy, problem, send } = useSend<{ id: string }>();
  useEffect(() => {
    admissions.program(pathId()).then((answer) => {
      if (answer.ok) setProgram(answer.data);
      else setFailure(answer);
    });
  }, []);
  const apply = async (intakeId: string) => {
    if (session.status !== "signed-in") return location.assign(loginUrl());
    const created = await send(() => admissions.createApplication(intakeId));
    if (created) location.assign(`/portal/applications/${created.data.id}`);
  };
  const open = program?.intakes.filter((intake) => intake.isOpen) ?? [];
  return (
    <Layout session={session}>
      {failure && <ProblemNotice problem={failure.problem} />}
      {program && (
        <article>
          <h2>{program.name}</h2>
          <p class="muted">
            {program.code} · {t(`level.${program.level}` as MessageKey)} · {program.department} ·{" "}
            {t("program.duration", { months: program.durationMonths })}
          </p>
          <p>{program.description}</p>
          <h3>{t("program.requirements")}</h3>
          <p>{program.entryRequirements}</p>
          <h3>{t("program.documents")}</h3>
          <ul>
            {program.requiredDocuments.map((type) => (
              <li key={type}>{t(`document.${type}` as MessageKey)}</li>
            ))}
          </ul>
          <p>{t("programs.fee", { fee: formatMoney(program.applicationFee) })}</p>
          <h3>{t("program.intakes")}</h3>
          {problem && <ProblemNotice problem={problem} testId="apply-problem" />}
          {open.length === 0 ? (
            <p>{t("program.noOpenIntake")}</p>
          ) : (
            <ul class="intakes">
              {open.map((intake) => (
                <li key={intake.id}>
                  {t("program.intake", { term: intake.term, deadline: formatDay(intake.deadline) })}{" "}
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => apply(intake.id)}
                    data-testid="apply"
                  >
                    {t("program.apply", { term: intake.term })}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {problem?.code === "APPLICATION_EXISTS" && (
            <p>
              <a href="/portal/applications/">{t("nav.applications")}</a>
            </p>
          )}
        </article>
      )}
    </Layout>
  );
}
