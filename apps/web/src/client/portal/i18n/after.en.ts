import type { STATUSES } from "@platform/admissions/models";

type Status = (typeof STATUSES)[number];

/** What each status asks of the applicant next (the dashboard and the application's page). */
const next: Record<`next.${Status}`, string> = {
  "next.draft": "Finish your application and send it by {deadline}.",
  "next.submitted":
    "Nothing to do for now: the admissions office will review your application and email you.",
  "next.under_review":
    "Nothing to do for now: your application is being reviewed. We will email you.",
  "next.interviewing": "Nothing to do for now: the office will invite you to an interview.",
  "next.offered": "Accept or decline the offer by {deadline}.",
  "next.conditionally_offered":
    "Accept or decline the offer by {deadline}, and send evidence for its conditions.",
  "next.waitlisted":
    "You are on the waiting list. Nothing to do for now: we will email you if a place frees up.",
  "next.rejected": "No further steps: this application was not successful.",
  "next.accepted": "Your place is confirmed. We will email you before the programme starts.",
  "next.declined": "No further steps: you declined the offer.",
  "next.offer_expired": "No further steps: the offer expired before it was answered.",
  "next.enrolled": "You are enrolled. Welcome!",
  "next.conditions_not_met": "No further steps: a condition of the offer was not met.",
  "next.withdrawn": "No further steps: this application is withdrawn.",
};

/** The history in words: what each move meant for the applicant. */
const moves: Record<`timeline.to.${Status}`, string> = {
  "timeline.to.draft": "You started this application.",
  "timeline.to.submitted": "You sent your application.",
  "timeline.to.under_review": "The admissions office started reviewing your application.",
  "timeline.to.interviewing": "You were invited to an interview.",
  "timeline.to.offered": "You were offered a place.",
  "timeline.to.conditionally_offered": "You were offered a place, with conditions.",
  "timeline.to.waitlisted": "You were put on the waiting list.",
  "timeline.to.rejected": "The application was not successful.",
  "timeline.to.accepted": "The offer was accepted.",
  "timeline.to.declined": "The offer was declined.",
  "timeline.to.offer_expired": "The offer expired: it was not answered in time.",
  "timeline.to.enrolled": "You were enrolled.",
  "timeline.to.conditions_not_met": "The offer ended: a condition was not met.",
  "timeline.to.withdrawn": "The application was withdrawn.",
};

/** After the application is sent: the offer, interviews, conditions, letters, history, choices. */
export const afterEn = {
  ...next,
  ...moves,
  "next.waitlistedAt":
    "You are number {position} on the waiting list. Nothing to do for now: we will email you if a place frees up.",
  "next.interviewInvited": "Confirm your interview on {when}, or ask for another time.",
  "next.interviewConfirmed": "Your interview is on {when}.",
  "next.interviewRescheduling": "You asked for another interview time: the office will send one.",
  "next.acceptedChecking":
    "The office is checking the evidence you sent for your offer's conditions: we will email you.",
  "next.acceptedConditions": "Send evidence for your offer's conditions by {deadline}.",
  "page.withdraw.title": "Withdraw your application",
  "page.withdraw.description": "Stop your application being considered.",
  "page.deferral.title": "Ask to defer your place",
  "page.deferral.description": "Move your accepted place to a later intake of the same programme.",

  "after.whatNext": "What happens next",
  "after.sentOn": "You sent it on {when}.",

  "offer.letter": "Read your offer letter (signed PDF)",

  "interview.heading": "Your interview",
  "interview.when": "When",
  "interview.length": "{minutes} minutes",
  "interview.where": "Where",
  "interview.online": "Online, by video:",
  "interview.state.invited": "Please confirm you can come, or ask for another time.",
  "interview.state.confirmed": "You confirmed you are coming.",
  "interview.state.reschedule_requested":
    "You asked for another time: the office will send you a new one.",
  "interview.state.cancelled": "This interview is cancelled.",
  "interview.state.open": "This interview is not confirmed yet.",
  "interview.cancelReason": "The office says: {reason}",
  "interview.confirm": "Confirm I can come",
  "interview.confirmed": "Thank you: your interview is confirmed.",
  "interview.askOther": "Ask for another time",
  "interview.note": "Why does this time not suit you? (optional)",
  "interview.noteHint": "Say which days or times would suit you better.",
  "interview.sendRequest": "Send my request",
  "interview.requested": "Your request is sent: the office will send you a new time.",
  "interview.calendar": "Add it to your calendar (.ics file)",
  "interview.past": "This interview has taken place.",

  "conditions.heading": "The conditions of your offer",
  "conditions.intro":
    "Send evidence for each condition, such as a certificate or your final grades. The office then checks it.",
  "conditions.allMet": "Every condition is met: your offer no longer has conditions.",
  "condition.due": "Due by {date}",
  "condition.state.pending": "Waiting for your evidence",
  "condition.state.sent": "Evidence sent: waiting for the office to check it",
  "condition.state.met": "Met",
  "condition.state.not_met": "Not met",
  "condition.state.waived": "No longer needed",
  "condition.evidenceLabel": "Evidence for this condition (PDF, PNG or JPEG)",
  "condition.evidenceHint":
    "Choosing a file sends it at once; a new file replaces the one sent before.",
  "condition.evidenceSent": "{name} is sent as evidence.",
  "condition.note": "The office says: {note}",
  "document.condition_evidence": "Evidence for a condition",

  "letters.heading": "Letters and receipts",
  "letters.offer": "Offer letter (signed PDF)",
  "letters.receipt": "Receipt {number} (signed PDF)",
  "letters.receiptPage": "Receipt {number}, to print",
  "letters.none": "Nothing yet: your receipts and offer letter will be here.",

  "timeline.you.accepted": "You accepted the offer.",
  "timeline.you.declined": "You declined the offer.",
  "timeline.you.withdrawn": "You withdrew your application.",
  "timeline.heading": "History",
  "timeline.moved": "Your place was moved to another intake.",
  "timeline.byOffice": "Note from the admissions office: “{note}”",
  "timeline.byYou": "Your note: “{note}”",
  "timeline.offerNotAnswered": "The offer was not answered before its deadline.",
  "timeline.conditionOverdue": "A condition was not met by its due date.",
  "timeline.conditionNotMet": "This condition was not met: “{condition}”.",

  "actions.heading": "Other things you can do",
  "actions.withdraw": "Withdraw this application",
  "actions.defer": "Ask to defer your place to a later intake",

  "withdraw.intro":
    "If you withdraw, the admissions office stops considering your application, and any offer or place you hold is released. This cannot be undone.",
  "withdraw.reason": "Why are you withdrawing? (optional)",
  "withdraw.reasonHint": "It helps the office to know; you do not have to say.",
  "withdraw.confirm": "Withdraw my application",
  "withdraw.keep": "No, keep my application",
  "withdraw.done": "Your application is withdrawn.",
  "withdraw.notPossible": "This application is closed: there is nothing to withdraw.",

  "deferral.intro":
    "You can ask to move your accepted place to a later intake of the same programme. The office decides and emails you; until then your place stays as it is.",
  "deferral.to": "Which intake would you like to move to?",
  "deferral.option": "{term}, starting after {date}",
  "deferral.noLater":
    "This programme has no later intake yet. Write to {contact} if you wish to defer.",
  "deferral.reason": "Why do you wish to defer? (optional)",
  "deferral.send": "Send my request",
  "deferral.sent": "Your request is sent. The office will email you their answer.",
  "deferral.requests": "Your requests",
  "deferral.state.requested": "Waiting for the office",
  "deferral.state.approved": "Approved",
  "deferral.state.refused": "Refused",
  "deferral.notAccepted": "Only an accepted place can be deferred.",
} as const;
