import type { journeyEn } from "./journey.en.ts";

/** Le parcours jusqu’au dépôt, en français (journey.en.ts dit à quoi sert chaque message). */
export const journeyFr: Record<keyof typeof journeyEn, string> = {
  "common.office": "le service des admissions",
  "page.home": "accueil",
  "page.contact": "Écrire au service des admissions :",
  "page.applications.title": "Vos candidatures",
  "page.applications.description": "Où en est chaque candidature, et ce qu’il reste à faire.",
  "page.application.title": "Votre candidature",
  "page.application.description": "Ce qui est fait, ce qui reste à faire, et la suite.",
  "page.sectionDetails.title": "Vos informations",
  "page.sectionDetails.description":
    "Votre nom, votre date de naissance, votre nationalité et vos coordonnées.",
  "page.sectionQualifications.title": "Diplômes",
  "page.sectionQualifications.description": "Votre diplôme le plus élevé à ce jour.",
  "page.sectionStatement.title": "Lettre de motivation",
  "page.sectionStatement.description": "Pourquoi vous souhaitez suivre cette formation.",
  "page.sectionDocuments.title": "Documents",
  "page.sectionDocuments.description": "Les documents que demande cette formation.",
  "page.sectionReferees.title": "Recommandations",
  "page.sectionReferees.description": "Les personnes qui écriront une recommandation pour vous.",
  "page.sectionFee.title": "Frais de dossier",
  "page.sectionFee.description":
    "Réglez les frais par virement, ou par carte lorsque c’est proposé.",
  "page.checkAnswers.title": "Vérifiez vos réponses",
  "page.checkAnswers.description":
    "Assurez-vous que tout est juste avant de déposer votre candidature : elle ne pourra plus être modifiée.",
  "page.submitted.title": "Candidature déposée",
  "page.submitted.description": "La suite.",

  "programs.applyBy": "Candidatures jusqu’au {date}",
  "programs.closed": "Pas de candidatures en ce moment.",
  "dashboard.none": "Vous n’avez encore commencé aucune candidature.",
  "dashboard.firstSteps": "Par où commencer",
  "dashboard.stepVerify":
    "Confirmez votre adresse e-mail : ouvrez le lien que nous vous avons envoyé.",
  "dashboard.stepVerifyLink": "M’envoyer un nouveau lien",
  "dashboard.stepProfile": "Renseignez vos informations personnelles",
  "dashboard.stepFind": "Trouvez une formation et commencez une candidature",
  "dashboard.next": "Prochaine étape :",
  "dashboard.deadline": "Date limite :",
  "dashboard.open": "Ouvrir",
  "dashboard.updated": "Modifiée le {when}",

  "tasks.applyBy": "Déposez votre candidature avant le {deadline}.",
  "tasks.deadlinePassed":
    "La date limite était le {deadline} : cette candidature ne peut plus être déposée.",
  "tasks.progress": "Vous avez terminé {done} parties sur {total}.",
  "tasks.listLabel": "Les parties de votre candidature",
  "tasks.check": "Vérifier vos réponses et déposer votre candidature",
  "tasks.checkHint":
    "Vous pouvez vérifier vos réponses à tout moment ; les parties qui restent à faire y sont signalées.",
  "section.details": "Vos informations",
  "section.qualifications": "Diplômes",
  "section.statement": "Lettre de motivation",
  "section.documents": "Documents",
  "section.referees": "Recommandations",
  "section.fee": "Frais de dossier",
  "taskState.not_started": "Pas commencée",
  "taskState.in_progress": "En cours",
  "taskState.completed": "Terminée",

  "section.back": "Retour à votre candidature",
  "section.saveAndReturn": "Enregistrer et revenir à votre candidature",
  "section.return": "Revenir à votre candidature",
  "section.autosave": "Vos réponses sont enregistrées au fil de la saisie.",
  "details.intro":
    "Ces informations sont conservées dans votre profil : toutes vos candidatures les utilisent, et vous pouvez aussi les modifier depuis votre compte.",
  "qualifications.yearHint":
    "L’année où vous l’avez obtenu, ou l’obtiendrez, en 4 chiffres : 2024.",
  "statement.hint":
    "Dites pourquoi vous souhaitez suivre cette formation et ce que vous y apporteriez. Visez au moins 100 caractères ; 20 000 au plus.",
  "statement.count": "{count} caractères sur 20 000",

  "documents.intro":
    "Ajoutez chaque document que demande cette formation. Un nouveau fichier d’un type déjà envoyé remplace l’ancien.",
  "documents.none": "Cette formation ne demande aucun document : il n’y a rien à envoyer.",
  "documents.notUploaded": "Pas encore envoyé",
  "documents.remove": "Retirer",
  "documents.removeNamed": "Retirer {name}",
  "documents.removed": "{name} est retiré.",
  "documents.replaced": "{name} est envoyé et remplace {old}.",
  "documents.uploadedOn": "{name}, envoyé le {when}",
  "documents.reviewNote": "Le service indique : {note}",
  "documents.uploadHeading": "Envoyer un document",
  "documents.readOnly": "Votre candidature est déposée : voici les documents qu’elle contient.",

  "fee.bankHeading": "Payer par virement",
  "fee.bankIntro":
    "Virez {amount} sur le compte ci-dessous. Indiquez exactement la référence du paiement, pour que nous puissions le rapprocher.",
  "fee.bankStart":
    "Demandez d’abord une référence de paiement : elle vous est propre, et le virement doit l’indiquer.",
  "fee.bankLater":
    "Nous confirmons votre virement, en général sous trois jours ouvrés ; cette page l’indiquera alors.",
  "fee.noBankDetails":
    "Les coordonnées bancaires ne sont pas affichées en ligne. Écrivez à {contact} pour les obtenir, en indiquant votre référence de paiement.",
  "fee.cardHeading": "Payer par carte",
  "fee.cardIntro": "Vous passez par une page de paiement sécurisée, puis revenez ici.",
  "fee.waiverHeading": "Si vous ne pouvez pas payer les frais",
  "fee.waiverText":
    "Le service des admissions peut, dans certains cas, vous dispenser des frais. Écrivez à {contact} en expliquant pourquoi ; en cas de dispense, cette page l’indiquera.",
  "bank.accountName": "Titulaire du compte",
  "bank.iban": "IBAN",
  "bank.bic": "BIC (code SWIFT)",
  "bank.bankName": "Banque",
  "bank.reference": "Référence du paiement",
  "bank.amount": "Montant",
  "bank.payBy": "À payer avant le",

  "check.change": "Modifier",
  "check.changeWhat": "Modifier {what}",
  "check.notGiven": "Non renseigné",
  "check.noReferees": "Aucun référent désigné",
  "check.incomplete":
    "Certaines parties ne sont pas terminées : {sections}. Vous pouvez tout de même essayer de déposer ; nous vous dirons ce qui manque.",
  "check.sendHeading": "Déposer votre candidature",
  "check.declaration":
    "En déposant cette candidature, vous confirmez que les informations fournies sont, à votre connaissance, exactes et complètes.",
  "check.send": "Accepter et déposer",
  "check.sent": "Votre candidature a été déposée le {when}.",

  "confirmation.reference": "Votre référence",
  "confirmation.emailed": "Une confirmation a été envoyée à {email}.",
  "confirmation.nextHeading": "La suite",
  "confirmation.next":
    "Le service des admissions va examiner votre candidature. Nous vous écrirons dès qu’il y aura du nouveau, par exemple une invitation à un entretien ou une décision. Vous pouvez suivre votre candidature à tout moment.",
  "confirmation.toDashboard": "Voir vos candidatures",
  "confirmation.toApplication": "Voir cette candidature",
};
