import type { refereesEn, referenceEn } from "./reference.en.ts";

/** The referee's page in French (see reference.en.ts). */
export const referenceFr: Record<keyof typeof referenceEn, string> = {
  "page.reference.title": "Rédiger une recommandation",
  "page.reference.description":
    "Une lettre de recommandation pour un candidat qui vous a désigné comme référent.",
  "reference.intro":
    "Madame, Monsieur {referee}, {applicant} s’est porté candidat à {program} ({term}) et vous a désigné comme référent.",
  "reference.private":
    "Le candidat verra que votre recommandation est arrivée, jamais ce qu’elle contient.",
  "reference.expires": "Ce lien ne fonctionne qu’une fois, jusqu’au {date}.",
  "reference.howText": "La rédiger ici",
  "reference.howFile": "Envoyer un PDF",
  "reference.text": "Votre recommandation",
  "reference.textHint": "De {min} à {max} caractères.",
  "reference.file": "Votre recommandation en PDF",
  "reference.fileHint": "Un PDF de {mb} Mo au plus.",
  "reference.submit": "Envoyer la recommandation",
  "reference.done": "Merci : votre recommandation a bien été reçue. Ce lien ne fonctionne plus.",
  "problem.INVALID_REFERENCE_LINK":
    "Ce lien a expiré, a été remplacé par un plus récent ou a déjà été utilisé. Si vous souhaitez toujours envoyer une recommandation, contactez le service des admissions.",
  "problem.REFERENCES_CLOSED":
    "Cette candidature est close : aucune recommandation n’est plus nécessaire. Merci.",
};

/** Le côté du candidat : désigner des référents sur la page de la candidature. */
export const refereesFr: Record<keyof typeof refereesEn, string> = {
  "referees.heading": "Recommandations",
  "referees.intro":
    "Désignez jusqu’à {max} référents. Chacun reçoit par e-mail un lien pour rédiger sa recommandation ; vous verrez quand elle arrive, jamais ce qu’elle dit.",
  "referees.none": "Aucun référent désigné pour l’instant.",
  "referees.name": "Nom complet du référent",
  "referees.email": "Adresse e-mail du référent",
  "referees.relationship": "Comment il vous connaît",
  "referees.relationshipHint": "Par exemple : encadrant de mon projet de fin d’études.",
  "referees.add": "Envoyer le lien à ce référent",
  "referees.added": "Un lien a été envoyé à {name}.",
  "referees.remove": "Retirer {name}",
  "referees.removed": "{name} a été retiré ; son lien ne fonctionne plus.",
  "referees.full": "Vous avez désigné autant de référents qu’une candidature peut en avoir.",
  "referees.status.requested": "Lien envoyé",
  "referees.status.reminded": "Relancé",
  "referees.status.received": "Reçue",
  "problem.REFEREE_LIMIT_REACHED": "Cette candidature a déjà autant de référents que possible.",
  "problem.REFEREE_EXISTS": "Ce référent est déjà désigné sur cette candidature.",
  "problem.REFEREE_IS_APPLICANT":
    "Cette adresse est la vôtre : un référent doit être une autre personne, avec sa propre adresse.",
  "problem.REFERENCE_RECEIVED": "Cette recommandation est arrivée : elle reste dans le dossier.",
};
