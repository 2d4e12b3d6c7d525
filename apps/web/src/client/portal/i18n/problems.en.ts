/**
 * Every problem the portal can meet, in English: each code the admissions API, the gateway and
 * the shared plumbing answer (test/portal-problems.test.ts checks none is missing), said as
 * what happened and what to do next. `{contact}` is the institution's address, `{requestId}`
 * the problem's own id (to quote when writing to the office). The codes that account pages,
 * referees and the reference page meet have their words beside those pages' own messages
 * (account.en.ts, reference.en.ts).
 */
export const problemsEn = {
  "problem.heading": "There is a problem",
  "problem.fallback4xx": "This could not be done. Check what you entered and try again.",
  "problem.quote": "If you write to us, quote {requestId}.",

  // The plumbing every service shares, the gateway, and the network.
  "problem.NETWORK_ERROR":
    "We could not reach the server. Check your internet connection, then try again.",
  "problem.BAD_REQUEST": "The request could not be understood. Reload the page and try again.",
  "problem.MALFORMED_JSON": "The request could not be understood. Reload the page and try again.",
  "problem.UNAUTHORIZED": "Your session has ended. Sign in again to continue.",
  "problem.FORBIDDEN": "You cannot do this with your account.",
  "problem.NOT_FOUND": "We could not find this. It may have been removed, or the link is wrong.",
  "problem.CONFLICT": "This changed in the meantime. Reload the page and try again.",
  "problem.PAYLOAD_TOO_LARGE": "That is too large to send. Choose a smaller file (10 MB at most).",
  "problem.UNSUPPORTED_MEDIA_TYPE": "That kind of file cannot be sent here.",
  "problem.VALIDATION_FAILED": "Some answers need correcting: see each one below.",
  "problem.RATE_LIMITED":
    "You have tried this many times in a short while. Wait a minute, then try again.",
  "problem.INTERNAL_ERROR":
    "Something went wrong on our side and nothing was changed. Try again in a few minutes; if it happens again, write to {contact}.",
  "problem.BAD_GATEWAY":
    "The service is not answering at the moment. Your work is kept on this page: try again in a few minutes.",
  "problem.SERVICE_UNAVAILABLE":
    "The service is busy or being restarted. Wait a few seconds, then try again.",
  "problem.NOT_READY": "The service is starting. Wait a few seconds, then try again.",
  "problem.GATEWAY_TIMEOUT":
    "The service took too long to answer. Try again in a minute; it may have been done, so check the page first.",
  "problem.UPSTREAM_UNHEALTHY":
    "The service is not answering at the moment. Try again in a few minutes.",

  // Signing in and accounts.
  "problem.INVALID_CREDENTIALS": "That email address and password do not match an account.",
  "problem.INVALID_TOKEN": "Your session has ended. Sign in again to continue.",
  "problem.INVALID_SESSION": "Your session has ended. Sign in again to continue.",
  "problem.INVALID_REFRESH_TOKEN": "Your session has ended. Sign in again to continue.",
  "problem.REFRESH_TOKEN_REUSED":
    "For your safety this sign-in was ended everywhere. Sign in again.",
  "problem.ACCOUNT_DISABLED":
    "This account is switched off. Write to {contact} if you think this is wrong.",
  "problem.CSRF_TOKEN_MISSING": "This page is out of date. Reload it and try again.",
  "problem.CSRF_TOKEN_INVALID": "This page is out of date. Reload it and try again.",
  "problem.LOGIN_THROTTLED": "Too many failed attempts. Wait a few minutes, then try again.",
  "problem.EMAIL_TAKEN": "An account already uses this email address.",
  "problem.PASSWORD_INCORRECT": "The current password is not right.",
  "problem.INVALID_ACCOUNT_TOKEN":
    "This link has expired or has already been used. Ask for a new one.",
  "problem.EMAIL_NOT_VERIFIED":
    "Confirm your email address first: open the link we emailed you, or ask for a new one on your account page.",
  "problem.EMAIL_ALREADY_VERIFIED": "Your email address is already confirmed.",
  "problem.MFA_REQUIRED": "Enter the 6-digit code from your authenticator app.",
  "problem.MFA_INVALID": "That code is not right, or it has expired. Enter the newest code.",
  "problem.MFA_ENROLMENT_REQUIRED": "Set up two-step sign-in before using these pages.",
  "problem.MFA_ALREADY_ENABLED": "Two-step sign-in is already on.",
  "problem.MFA_NOT_ENABLED": "Two-step sign-in is not on.",
  "problem.MFA_ENROLMENT_NOT_STARTED":
    "Start setting up two-step sign-in again: the last attempt expired.",
  "problem.CANNOT_CHANGE_OWN_ACCOUNT": "You cannot do this to your own account.",

  // The catalogue and applications.
  "problem.PROGRAM_CODE_TAKEN": "Another programme already has this code.",
  "problem.INTAKE_TERM_TAKEN": "This programme already has an intake with this name.",
  "problem.APPLICATION_EXISTS":
    "You already have an application for this intake: find it in My applications.",
  "problem.APPLICATION_NOT_EDITABLE":
    "This application has been sent, so it can no longer be changed.",
  "problem.PROGRAM_INACTIVE": "This programme is not taking applications.",
  "problem.INTAKE_NOT_OPEN": "Applications for this intake have not opened yet.",
  "problem.APPLICATION_DEADLINE_PASSED": "The deadline for this intake has passed.",
  "problem.REQUIRED_DOCUMENTS_MISSING":
    "Some required documents are missing. Upload them in the Documents section.",
  "problem.APPLICATION_FEE_UNPAID":
    "The application fee is not paid yet. Pay it in the Application fee section.",
  "problem.ILLEGAL_TRANSITION": "This cannot be done at this stage of the application.",
  "problem.TRANSITION_FORBIDDEN": "This step is for the admissions office to take.",
  "problem.PRECONDITION_FAILED":
    "This was changed somewhere else since you opened the page. Reload it to see the latest version.",

  // Documents.
  "problem.DOCUMENT_TOO_LARGE": "The file is larger than 10 MB. Choose a smaller file.",
  "problem.DOCUMENT_TYPE_NOT_ALLOWED":
    "This file is not a PDF, PNG or JPEG. Save it in one of those formats and choose it again.",
  "problem.DOCUMENT_EMPTY": "The file is empty. Choose the file again.",
  "problem.DOCUMENT_TRUNCATED":
    "The file is incomplete (it may not have finished saving). Save it again and choose it again.",
  "problem.DOCUMENT_LIMIT_REACHED":
    "This application holds as many documents as it can. Remove one you no longer need first.",
  "problem.DOCUMENTS_CLOSED": "This application is closed: it takes no more documents.",

  // Payments.
  "problem.IDEMPOTENCY_KEY_MISSING":
    "The payment could not be started. Reload the page and try again.",
  "problem.IDEMPOTENCY_KEY_REUSED":
    "The payment could not be started. Reload the page and try again.",
  "problem.FEE_NOT_REQUIRED": "This programme charges no application fee.",
  "problem.FEE_ALREADY_PAID": "The application fee is already paid.",
  "problem.FEE_WAIVED": "The application fee has been waived: there is nothing to pay.",
  "problem.PAYMENT_PENDING": "A payment is already waiting. Finish it, or wait for it to expire.",
  "problem.PAYMENT_SHORT":
    "Less than the fee arrived, so the payment was not confirmed. Nothing changed.",
  "problem.ILLEGAL_PAYMENT_TRANSITION": "This payment can no longer be changed.",
  "problem.REFUND_EXCEEDS_PAID": "That is more than is left to refund.",
  "problem.RECEIPT_NOT_AVAILABLE": "There is no receipt for this payment: it was not completed.",
  "problem.PAYMENT_PROVIDER_ERROR":
    "The card payment service did not answer. Nothing was charged: try again in a few minutes.",
  "problem.WEBHOOK_SIGNATURE_INVALID": "The payment notice could not be checked.",

  // Decisions, offers, conditions and deferrals.
  "problem.OFFER_LETTER_NOT_AVAILABLE": "There is no offer letter for this application.",
  "problem.NO_SEATS_AVAILABLE": "Every place on this intake is taken.",
  "problem.CAPACITY_BELOW_TAKEN": "The capacity cannot be lower than the places already taken.",
  "problem.OFFER_EXPIRED": "The time to answer this offer has passed.",
  "problem.WAITLIST_EMPTY": "Nobody is on the waiting list.",
  "problem.BULK_REFUSED": "None of these could be changed: each refusal is listed.",
  "problem.CONDITIONS_MET": "Every condition of this offer has been met.",
  "problem.CONDITIONS_CLOSED": "The conditions of this offer are settled: nothing more is needed.",
  "problem.CONDITION_SETTLED":
    "The office has already decided on this condition, so it takes no more evidence.",
  "problem.DEFERRAL_NOT_ALLOWED": "Only a place you have accepted can be deferred.",
  "problem.DEFERRAL_PENDING": "You have already asked to defer: wait for the office's answer.",
  "problem.DEFERRAL_CLOSED": "This request has already been decided.",
  "problem.DEFERRAL_CONFLICT": "You already have an application for that intake.",
  "problem.REASON_CODE_TAKEN": "This reason code is already used.",

  // Review and interviews (mostly the office's pages).
  "problem.REVIEWER_NOT_IN_POOL": "This reviewer does not review this programme.",
  "problem.REVIEWER_CONFLICTED":
    "This reviewer declared a conflict of interest with this application.",
  "problem.NO_REVIEWER_AVAILABLE": "No reviewer is free to take this application.",
  "problem.ALREADY_ASSIGNED": "This reviewer is already assigned.",
  "problem.ASSIGNMENT_CLOSED": "This application is no longer open to reviewers.",
  "problem.NOT_ASSIGNED": "This application is not assigned to you.",
  "problem.CONFLICT_OF_INTEREST": "You declared a conflict of interest with this application.",
  "problem.RUBRIC_MISSING": "This programme has no scoring rubric yet.",
  "problem.RUBRIC_IN_USE": "This rubric has been used to score applications, so it cannot change.",
  "problem.REVIEWS_CLOSED": "This application is no longer under review.",
  "problem.INTERVIEW_CLASH": "Someone on the panel has another interview at that time.",
  "problem.INTERVIEW_NOT_OPEN": "This interview slot is taken or cancelled.",
  "problem.INTERVIEW_NOT_ALLOWED": "This application is not at the interview stage.",
  "problem.INTERVIEW_ALREADY_SCHEDULED": "This application already has an interview.",
  "problem.INTERVIEW_CLOSED":
    "This interview is cancelled or has started, so it can no longer be changed here.",
  "problem.INTERVIEW_STATE_CONFLICT":
    "You have asked for another time: wait for the office to send a new one.",
  "problem.INTERVIEW_NOT_HELD": "This interview has not taken place yet.",
  "problem.NOT_ON_PANEL": "You are not on this interview's panel.",

  // Webhooks (the office's integrations).
  "problem.WEBHOOK_DELIVERY_PENDING": "This delivery is still being retried.",

  // What each rule a field broke means (the API's `rule`), said beside the field.
  "rule.required": "This must be filled in.",
  "rule.type": "Enter this in figures.",
  "rule.format": "This is not in the form asked for: the hint says how to write it.",
  "rule.format.email": "Enter an email address in the correct format, like name@example.com.",
  "rule.format.date": "Enter a real date as year-month-day, like 2007-12-10.",
  "rule.format.date-time": "Enter a real date and time.",
  "rule.format.uuid": "This does not name anything we know. Reload the page and choose again.",
  "rule.format.single-line-text": "Write this on one line, with words, not only spaces.",
  "rule.format.multi-line-text": "Write this with words, not only spaces or unusual characters.",
  "rule.pattern": "This is not in the form asked for: the hint says how to write it.",
  "rule.minLength": "Enter at least {limit} characters.",
  "rule.maxLength": "Enter {limit} characters or fewer.",
  "rule.minimum": "Enter {limit} or more.",
  "rule.maximum": "Enter {limit} or less.",
  "rule.minItems": "Give at least {limit}.",
  "rule.maxItems": "Give {limit} at most.",
  "rule.uniqueItems": "Give each one only once.",
  "rule.enum": "Choose one of the options offered.",
  "rule.unknownField": "This form does not take this. Reload the page.",
  "rule.future": "Enter a date in the future.",
  "rule.later": "This must come after the one before it.",
  "rule.notFound": "This does not match anything we have. Check it, or choose again.",
  "rule.duplicate": "This is already used. Choose another.",
  "rule.notAllowed": "This cannot be chosen here.",
  "rule.invalid": "This cannot be accepted. Check it and try again.",
  // A field's own words, where the general ones would say less.
  "ruleFor.password.minLength": "Your password must be 10 to 128 characters.",
  "ruleFor.password.maxLength": "Your password must be 10 to 128 characters.",
  "ruleFor.newPassword.minLength": "Your new password must be 10 to 128 characters.",
  "ruleFor.newPassword.maxLength": "Your new password must be 10 to 128 characters.",
  "ruleFor.fullName.minLength": "Enter your full name.",
  "ruleFor.graduationYear.type": "Enter the year as 4 figures, like 2024.",
  "ruleFor.graduationYear.minimum": "Enter a year from 1900 onwards.",
  "ruleFor.graduationYear.maximum": "Enter a year before 2100.",
  "ruleFor.phone.pattern": "Enter the number with its country code, like +44 20 7123 4567.",
  "ruleFor.nationality.pattern": "Enter a 2-letter country code, like FR or GB.",
  "ruleFor.country.pattern": "Enter a 2-letter country code, like FR or GB.",
  "ruleFor.file.required": "Choose a file to upload.",
  "ruleFor.type.enum": "Choose the kind of document this is.",
  "ruleFor.toIntakeId.format": "Choose the intake to move your place to.",
  "ruleFor.toIntakeId.required": "Choose the intake to move your place to.",
  "ruleFor.toIntakeId.later": "Choose a later intake of the same programme.",
} as const;
