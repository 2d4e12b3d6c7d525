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

/** The applicant's side: naming referees on the application page. */
export const refereesEn = {
  "referees.heading": "References",
  "referees.intro":
    "Name up to {max} referees. Each is emailed a link to write a reference; you will see when it arrives, never what it says.",
  "referees.none": "No referee named yet.",
  "referees.name": "Referee's full name",
  "referees.email": "Referee's email address",
  "referees.relationship": "How they know you",
  "referees.relationshipHint": "For example: supervisor of my final-year project.",
  "referees.add": "Email this referee",
  "referees.added": "{name} has been emailed a link.",
  "referees.remove": "Remove {name}",
  "referees.removed": "{name} was removed; their link no longer works.",
  "referees.full": "You have named as many referees as an application can have.",
  "referees.status.requested": "Link sent",
  "referees.status.reminded": "Reminded",
  "referees.status.received": "Received",
  "problem.REFEREE_LIMIT_REACHED": "This application already has as many referees as it can.",
  "problem.REFEREE_EXISTS": "This referee is already named on this application.",
  "problem.REFEREE_IS_APPLICANT":
    "That address is yours: a referee must be someone else, with their own email address.",
  "problem.REFERENCE_RECEIVED": "This reference has arrived: it stays with the application.",
};
