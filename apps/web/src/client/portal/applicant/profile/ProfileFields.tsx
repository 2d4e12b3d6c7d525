import type { Problem } from "@platform/contracts/problem";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";
import type { SummaryField } from "../../ui/ErrorSummary.tsx";
import { Field } from "../../ui/Field.tsx";
import { inputValue } from "../../ui/useForm.ts";
import { errorFor, FIELD_PATHS, type ProfileForm } from "./form.ts";

type Extra = Partial<Parameters<typeof Field>[0]>;

/** Each field, its input's own attributes (autocomplete, hint, kind). */
const FIELDS: { name: keyof ProfileForm; group: "you" | "address"; extra: () => Extra }[] = [
  { name: "legalName", group: "you", extra: () => ({ autocomplete: "name" }) },
  { name: "preferredName", group: "you", extra: () => ({ autocomplete: "nickname" }) },
  {
    name: "dateOfBirth",
    group: "you",
    extra: () => ({ hint: t("profile.dateHint"), autocomplete: "bday" }),
  },
  {
    name: "nationality",
    group: "you",
    extra: () => ({ hint: t("profile.countryHint"), maxLength: 2 }),
  },
  {
    name: "phone",
    group: "you",
    extra: () => ({ type: "tel", hint: t("profile.phoneHint"), autocomplete: "tel" }),
  },
  { name: "lines", group: "address", extra: () => ({ rows: 3, hint: t("profile.linesHint") }) },
  { name: "city", group: "address", extra: () => ({ autocomplete: "address-level2" }) },
  { name: "region", group: "address", extra: () => ({ autocomplete: "address-level1" }) },
  { name: "postcode", group: "address", extra: () => ({ autocomplete: "postal-code" }) },
  {
    name: "country",
    group: "address",
    extra: () => ({ hint: t("profile.countryHint"), maxLength: 2 }),
  },
];

const label = (name: keyof ProfileForm) => t(`profile.${name}` as MessageKey);

/** The error summary's links: each field by the API's path. */
export const profileSummaryFields = (): SummaryField[] =>
  FIELDS.map(({ name }) => ({
    name: FIELD_PATHS[name],
    id: `profile-${name}`,
    label: label(name),
  }));

/**
 * The personal details' fields, in two groups (you, your address), each with the API's refusal
 * beside it in words: the profile page and the application's "Your details" section share them.
 */
export function ProfileFields({
  form,
  problem,
  onChange,
}: {
  form: ProfileForm;
  problem: Problem | null;
  onChange: (form: ProfileForm) => void;
}) {
  const field = ({ name, extra }: (typeof FIELDS)[number]) => (
    <Field
      key={name}
      id={`profile-${name}`}
      label={label(name)}
      value={form[name]}
      error={errorFor(problem, name)}
      onInput={(e) => onChange({ ...form, [name]: inputValue(e) })}
      data-testid={`profile-${name}`}
      {...extra()}
    />
  );
  return (
    <>
      <fieldset>
        <legend>{t("profile.you")}</legend>
        {FIELDS.filter((f) => f.group === "you").map(field)}
      </fieldset>
      <fieldset>
        <legend>{t("profile.address")}</legend>
        {FIELDS.filter((f) => f.group === "address").map(field)}
      </fieldset>
    </>
  );
}
