/**
 * The institution the portal speaks for, as the server put it in the shell's meta tags
 * (WEB_INSTITUTION_NAME, WEB_CONTACT_EMAIL): pages name it and give its address where a person
 * must write to the office.
 */
const meta = (name: string) =>
  typeof document === "undefined"
    ? ""
    : (document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "");

export const institution = {
  name: meta("institution-name"),
  contact: meta("institution-contact"),
};
