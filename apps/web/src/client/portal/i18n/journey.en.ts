/**
 * The applicant's journey up to sending: the dashboard, the task list, each section's page,
 * "check your answers" and the confirmation (docs/web-applicants.md).
 */
export const journeyEn = {
  "common.office": "the admissions office",
  "page.home": "home",
  "page.contact": "Contact the admissions office:",
  "page.applications.title": "Your applications",
  "page.applications.description": "Where each application stands, and what to do next.",
  "page.application.title": "Your application",
  "page.application.description": "What is done, what is left, and what happens next.",
  "page.sectionDetails.title": "Your details",
  "page.sectionDetails.description": "Your name, date of birth, nationality and how to reach you.",
  "page.sectionQualifications.title": "Qualifications",
  "page.sectionQualifications.description": "Your highest qualification so far.",
  "page.sectionStatement.title": "Personal statement",
  "page.sectionStatement.description": "Why you want to study this programme.",
  "page.sectionDocuments.title": "Documents",
  "page.sectionDocuments.description": "The documents this programme asks for.",
  "page.sectionReferees.title": "References",
  "page.sectionReferees.description": "The people who will write a reference for you.",
  "page.sectionFee.title": "Application fee",
  "page.sectionFee.description": "Pay the fee by bank transfer, or by card where offered.",
  "page.checkAnswers.title": "Check your answers",
  "page.checkAnswers.description":
    "Make sure everything is right before you send your application: it cannot be changed after.",
  "page.submitted.title": "Application sent",
  "page.submitted.description": "What happens next.",

  "programs.applyBy": "Apply by {date}",
  "programs.closed": "Not taking applications at the moment.",
  "dashboard.none": "You have not started an application yet.",
  "dashboard.firstSteps": "What to do first",
  "dashboard.stepVerify": "Confirm your email address: open the link we emailed you.",
  "dashboard.stepVerifyLink": "Send me a new link",
  "dashboard.stepProfile": "Fill in your personal details",
  "dashboard.stepFind": "Find a programme and start an application",
  "dashboard.next": "Next step:",
  "dashboard.deadline": "Deadline:",
  "dashboard.open": "Open",
  "dashboard.updated": "Last changed {when}",

  "tasks.applyBy": "Send your application by {deadline}.",
  "tasks.deadlinePassed": "The deadline was {deadline}: this application can no longer be sent.",
  "tasks.progress": "You have completed {done} of {total} sections.",
  "tasks.listLabel": "Sections of your application",
  "tasks.check": "Check your answers and send your application",
  "tasks.checkHint":
    "You can check your answers at any time; sections still to do are shown there.",
  "section.details": "Your details",
  "section.qualifications": "Qualifications",
  "section.statement": "Personal statement",
  "section.documents": "Documents",
  "section.referees": "References",
  "section.fee": "Application fee",
  "taskState.not_started": "Not started",
  "taskState.in_progress": "In progress",
  "taskState.completed": "Completed",

  "section.back": "Back to your application",
  "section.saveAndReturn": "Save and return to your application",
  "section.return": "Return to your application",
  "section.autosave": "Your answers are saved as you type.",
  "details.intro":
    "These details are kept in your profile: every application you make uses them, and you can change them from your account too.",
  "qualifications.yearHint": "The year you finished it, or will finish it, as 4 figures: 2024.",
  "statement.hint":
    "Say why you want to study this programme and what you would bring to it. Aim for at least 100 characters; 20,000 at most.",
  "statement.count": "{count} of 20,000 characters",

  "documents.intro":
    "Upload each document this programme asks for. A new file of a type you already uploaded replaces the old one.",
  "documents.none": "This programme asks for no documents: there is nothing to upload.",
  "documents.notUploaded": "Not uploaded yet",
  "documents.remove": "Remove",
  "documents.removeNamed": "Remove {name}",
  "documents.removed": "{name} is removed.",
  "documents.replaced": "{name} is uploaded and replaces {old}.",
  "documents.uploadedOn": "{name}, uploaded {when}",
  "documents.reviewNote": "The office says: {note}",
  "documents.uploadHeading": "Upload a document",
  "documents.readOnly": "Your application has been sent: these are the documents it holds.",

  "fee.bankHeading": "Pay by bank transfer",
  "fee.bankIntro":
    "Transfer {amount} to the account below. Quote the payment reference exactly, so we can match your payment.",
  "fee.bankStart":
    "Ask for a payment reference first: it is yours alone, and the transfer must quote it.",
  "fee.bankLater":
    "We confirm your transfer, usually within three working days; this page shows it then.",
  "fee.noBankDetails":
    "The account details are not shown online. Write to {contact} for them, quoting your payment reference.",
  "fee.cardHeading": "Pay by card",
  "fee.cardIntro": "You go to a secure payment page, then come back here.",
  "fee.waiverHeading": "If you cannot pay the fee",
  "fee.waiverText":
    "The admissions office can waive the fee in some cases. Write to {contact} with your reasons; if they waive it, this page will say so.",
  "bank.accountName": "Account name",
  "bank.iban": "IBAN",
  "bank.bic": "BIC (SWIFT code)",
  "bank.bankName": "Bank",
  "bank.reference": "Payment reference",
  "bank.amount": "Amount",
  "bank.payBy": "Pay by",

  "check.change": "Change",
  "check.changeWhat": "Change {what}",
  "check.notGiven": "Not given",
  "check.noReferees": "No referee named",
  "check.incomplete":
    "Some sections are not completed yet: {sections}. You can still try to send; we will tell you what is missing.",
  "check.sendHeading": "Now send your application",
  "check.declaration":
    "By sending this application you confirm that, to the best of your knowledge, the details you give are correct and complete.",
  "check.send": "Accept and send",
  "check.sent": "Your application was sent on {when}.",

  "confirmation.reference": "Your reference",
  "confirmation.emailed": "We have emailed a confirmation to {email}.",
  "confirmation.nextHeading": "What happens next",
  "confirmation.next":
    "The admissions office will review your application. We will email you when there is news, such as an invitation to an interview or a decision. You can follow your application at any time.",
  "confirmation.toDashboard": "Go to your applications",
  "confirmation.toApplication": "View this application",
} as const;
