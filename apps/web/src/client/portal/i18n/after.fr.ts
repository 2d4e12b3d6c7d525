import type { afterEn } from "./after.en.ts";

/** Après le dépôt, en français (after.en.ts dit à quoi sert chaque message). */
export const afterFr: Record<keyof typeof afterEn, string> = {
  "next.draft": "Terminez votre candidature et déposez-la avant le {deadline}.",
  "next.submitted":
    "Rien à faire pour l’instant : le service des admissions va examiner votre candidature et vous écrira.",
  "next.under_review":
    "Rien à faire pour l’instant : votre candidature est en cours d’examen. Nous vous écrirons.",
  "next.interviewing": "Rien à faire pour l’instant : le service vous invitera à un entretien.",
  "next.offered": "Acceptez ou refusez l’offre avant le {deadline}.",
  "next.conditionally_offered":
    "Acceptez ou refusez l’offre avant le {deadline}, et envoyez les justificatifs de ses conditions.",
  "next.waitlisted":
    "Vous êtes sur la liste d’attente. Rien à faire pour l’instant : nous vous écrirons si une place se libère.",
  "next.rejected": "Pas d’autre étape : cette candidature n’a pas été retenue.",
  "next.accepted": "Votre place est confirmée. Nous vous écrirons avant le début de la formation.",
  "next.declined": "Pas d’autre étape : vous avez refusé l’offre.",
  "next.offer_expired": "Pas d’autre étape : l’offre a expiré sans réponse.",
  "next.enrolled": "Vous êtes inscrit·e. Bienvenue !",
  "next.conditions_not_met": "Pas d’autre étape : une condition de l’offre n’a pas été remplie.",
  "next.withdrawn": "Pas d’autre étape : cette candidature est retirée.",
  "timeline.to.draft": "Vous avez commencé cette candidature.",
  "timeline.to.submitted": "Vous avez déposé votre candidature.",
  "timeline.to.under_review": "Le service des admissions a commencé l’examen de votre candidature.",
  "timeline.to.interviewing": "Vous avez été invité·e à un entretien.",
  "timeline.to.offered": "Une place vous a été offerte.",
  "timeline.to.conditionally_offered": "Une place vous a été offerte, sous conditions.",
  "timeline.to.waitlisted": "Vous avez été placé·e sur la liste d’attente.",
  "timeline.to.rejected": "La candidature n’a pas été retenue.",
  "timeline.to.accepted": "L’offre a été acceptée.",
  "timeline.to.declined": "L’offre a été refusée.",
  "timeline.to.offer_expired": "L’offre a expiré : elle n’a pas reçu de réponse à temps.",
  "timeline.to.enrolled": "Vous avez été inscrit·e.",
  "timeline.to.conditions_not_met": "L’offre a pris fin : une condition n’a pas été remplie.",
  "timeline.to.withdrawn": "La candidature a été retirée.",
  "next.waitlistedAt":
    "Vous êtes en position {position} sur la liste d’attente. Rien à faire pour l’instant : nous vous écrirons si une place se libère.",
  "next.interviewInvited": "Confirmez votre entretien du {when}, ou demandez un autre horaire.",
  "next.interviewConfirmed": "Votre entretien a lieu le {when}.",
  "next.interviewRescheduling":
    "Vous avez demandé un autre horaire d’entretien : le service vous en proposera un.",
  "next.acceptedChecking":
    "Le service vérifie les justificatifs envoyés pour les conditions de votre offre : nous vous écrirons.",
  "next.acceptedConditions":
    "Envoyez les justificatifs des conditions de votre offre avant le {deadline}.",
  "page.withdraw.title": "Retirer votre candidature",
  "page.withdraw.description": "Mettre fin à l’examen de votre candidature.",
  "page.deferral.title": "Demander le report de votre place",
  "page.deferral.description":
    "Reporter votre place acceptée à une session ultérieure de la même formation.",

  "after.whatNext": "La suite",
  "after.sentOn": "Vous l’avez déposée le {when}.",

  "offer.letter": "Lire votre lettre d’offre (PDF signé)",

  "interview.heading": "Votre entretien",
  "interview.when": "Quand",
  "interview.length": "{minutes} minutes",
  "interview.where": "Où",
  "interview.online": "En ligne, par visioconférence :",
  "interview.state.invited": "Merci de confirmer votre venue, ou de demander un autre horaire.",
  "interview.state.confirmed": "Vous avez confirmé votre venue.",
  "interview.state.reschedule_requested":
    "Vous avez demandé un autre horaire : le service vous en proposera un nouveau.",
  "interview.state.cancelled": "Cet entretien est annulé.",
  "interview.state.open": "Cet entretien n’est pas encore confirmé.",
  "interview.cancelReason": "Le service indique : {reason}",
  "interview.confirm": "Confirmer ma venue",
  "interview.confirmed": "Merci : votre entretien est confirmé.",
  "interview.askOther": "Demander un autre horaire",
  "interview.note": "Pourquoi cet horaire ne vous convient-il pas ? (facultatif)",
  "interview.noteHint": "Indiquez les jours ou horaires qui vous conviendraient mieux.",
  "interview.sendRequest": "Envoyer ma demande",
  "interview.requested": "Votre demande est envoyée : le service vous proposera un nouvel horaire.",
  "interview.calendar": "L’ajouter à votre agenda (fichier .ics)",
  "interview.past": "Cet entretien a eu lieu.",

  "conditions.heading": "Les conditions de votre offre",
  "conditions.intro":
    "Envoyez un justificatif pour chaque condition, par exemple un certificat ou vos notes finales. Le service le vérifie ensuite.",
  "conditions.allMet": "Toutes les conditions sont remplies : votre offre n’a plus de condition.",
  "condition.due": "À remplir avant le {date}",
  "condition.state.pending": "En attente de votre justificatif",
  "condition.state.sent": "Justificatif envoyé : en attente de vérification par le service",
  "condition.state.met": "Remplie",
  "condition.state.not_met": "Non remplie",
  "condition.state.waived": "Plus exigée",
  "condition.evidenceLabel": "Justificatif pour cette condition (PDF, PNG ou JPEG)",
  "condition.evidenceHint":
    "Le fichier est envoyé dès que vous le choisissez ; un nouveau fichier remplace le précédent.",
  "condition.evidenceSent": "{name} est envoyé comme justificatif.",
  "condition.note": "Le service indique : {note}",
  "document.condition_evidence": "Justificatif pour une condition",

  "letters.heading": "Courriers et reçus",
  "letters.offer": "Lettre d’offre (PDF signé)",
  "letters.receipt": "Reçu {number} (PDF signé)",
  "letters.receiptPage": "Reçu {number}, à imprimer",
  "letters.none": "Rien pour l’instant : vos reçus et votre lettre d’offre apparaîtront ici.",

  "timeline.you.accepted": "Vous avez accepté l’offre.",
  "timeline.you.declined": "Vous avez refusé l’offre.",
  "timeline.you.withdrawn": "Vous avez retiré votre candidature.",
  "timeline.heading": "Historique",
  "timeline.moved": "Votre place a été reportée à une autre session.",
  "timeline.byOffice": "Note du service des admissions : « {note} »",
  "timeline.byYou": "Votre note : « {note} »",
  "timeline.offerNotAnswered": "L’offre n’a pas reçu de réponse avant sa date limite.",
  "timeline.conditionOverdue": "Une condition n’a pas été remplie à temps.",
  "timeline.conditionNotMet": "Cette condition n’a pas été remplie : « {condition} ».",

  "actions.heading": "Autres démarches possibles",
  "actions.withdraw": "Retirer cette candidature",
  "actions.defer": "Demander le report de votre place à une session ultérieure",

  "withdraw.intro":
    "Si vous retirez votre candidature, le service des admissions cesse de l’examiner, et toute offre ou place que vous détenez est libérée. C’est définitif.",
  "withdraw.reason": "Pourquoi retirez-vous votre candidature ? (facultatif)",
  "withdraw.reasonHint": "Cela aide le service ; vous n’êtes pas obligé·e de le dire.",
  "withdraw.confirm": "Retirer ma candidature",
  "withdraw.keep": "Non, garder ma candidature",
  "withdraw.done": "Votre candidature est retirée.",
  "withdraw.notPossible": "Cette candidature est close : il n’y a rien à retirer.",

  "deferral.intro":
    "Vous pouvez demander à reporter votre place acceptée à une session ultérieure de la même formation. Le service décide et vous écrit ; d’ici là, votre place ne change pas.",
  "deferral.to": "Vers quelle session souhaitez-vous reporter votre place ?",
  "deferral.option": "{term}, après le {date}",
  "deferral.noLater":
    "Cette formation n’a pas encore de session ultérieure. Écrivez à {contact} si vous souhaitez reporter.",
  "deferral.reason": "Pourquoi souhaitez-vous reporter ? (facultatif)",
  "deferral.send": "Envoyer ma demande",
  "deferral.sent": "Votre demande est envoyée. Le service vous écrira sa réponse.",
  "deferral.requests": "Vos demandes",
  "deferral.state.requested": "En attente du service",
  "deferral.state.approved": "Acceptée",
  "deferral.state.refused": "Refusée",
  "deferral.notAccepted": "Seule une place acceptée peut être reportée.",
};
