import type { referenceEn } from "./reference.en.ts";

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
