import type {
  Application,
  Checklist,
  Document,
  FeeSummary,
  Profile,
  ReferenceList,
} from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatMoney, t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import type { Section } from "../application/tasks.ts";
import type { SummaryRow } from "./SummaryList.tsx";

export type Answers = {
  application: Application;
  profile: Profile;
  checklist: Checklist;
  documents: Document[];
  fee: FeeSummary;
  referees: ReferenceList;
};

const given = (value: string | number | null | undefined) =>
  value === null || value === undefined || String(value).trim() === ""
    ? t("check.notGiven")
    : String(value);

/** Each section's answers as summary rows, each row changed on its section's page. */
export function answerRows(a: Answers): Record<Section, SummaryRow[]> {
  const at = (section: string) => applicationPath(a.application.id, section);
  const p = a.profile;
  const address = p.address
    ? [...p.address.lines, p.address.city, p.address.region, p.address.postcode, p.address.country]
        .filter(Boolean)
        .join(", ")
    : null;
  const profileRow = (key: MessageKey, value: string | null) => ({
    label: t(key),
    value: given(value),
    changeHref: at("details"),
  });
  return {
    details: [
      profileRow("profile.legalName", p.legalName),
      profileRow("profile.dateOfBirth", p.dateOfBirth),
      profileRow("profile.nationality", p.nationality),
      profileRow("profile.phone", p.phone),
      profileRow("profile.address", address),
    ],
    qualifications: [
      ["application.priorQualification", a.application.priorQualification],
      ["application.priorInstitution", a.application.priorInstitution],
      ["application.graduationYear", a.application.graduationYear],
    ].map(([key, value]) => ({
      label: t(key as MessageKey),
      value: given(value as string | number | null),
      changeHref: at("qualifications"),
    })),
    statement: [
      {
        label: t("section.statement"),
        value: given(a.application.personalStatement),
        changeHref: at("statement"),
      },
    ],
    documents: a.checklist.items.map((item) => ({
      label: t(`document.${item.type}` as MessageKey),
      value:
        a.documents
          .filter((d) => d.type === item.type)
          .map((d) => d.fileName)
          .join(", ") || t("documents.notUploaded"),
      changeHref: at("documents"),
    })),
    referees: [
      {
        label: t("section.referees"),
        value: a.referees.references.map((r) => r.refereeName).join(", ") || t("check.noReferees"),
        changeHref: at("referees"),
      },
    ],
    fee: [
      {
        label: t("section.fee"),
        value: t(`fee.${a.fee.status}` as MessageKey, { fee: formatMoney(a.fee.fee) }),
        changeHref: at("fee"),
      },
    ],
  };
}
