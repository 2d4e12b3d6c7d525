/** The referee's page in English (kept apart, as account.en.ts is; en.ts spreads it in). */
export const referenceEn = {
  "page.reference.title": "Write a reference",
  "page.reference.description": "A reference for an applicant who named you as a referee.",
  "reference.intro":
    "Dear {referee}, {applicant} has applied to {program} ({term}) and named you as a referee.",
  "reference.private": "The applicant will see that your reference arrived, never what it says.",
  "reference.expires": "This link works once, until {date}.",
  "reference.howText": "Write it here",
  "reference.howFile": "Upload a PDF",
  "reference.text": "Your reference",
  "reference.textHint": "{min} to {max} characters.",
  "reference.file": "Your reference as a PDF",
  "reference.fileHint": "A PDF of at most {mb} MB.",
  "reference.submit": "Send the reference",
  "reference.done": "Thank you: your reference has been received. This link no longer works.",
  "problem.INVALID_REFERENCE_LINK":
    "This link has expired, was replaced by a newer one or was already used. If you still wish to send a reference, please contact the admissions office.",
  "problem.REFERENCES_CLOSED":
    "This application is closed: no reference is needed any more. Thank you.",
};
