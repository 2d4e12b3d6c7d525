import type { problemsEn } from "./problems.en.ts";

/** Every problem the portal can meet, in French (problems.en.ts says what each is). */
export const problemsFr: Record<keyof typeof problemsEn, string> = {
  "problem.heading": "Il y a un problème",
  "problem.fallback4xx": "Cette action n’a pas pu aboutir. Vérifiez votre saisie et réessayez.",
  "problem.quote": "Si vous nous écrivez, indiquez la référence {requestId}.",

  "problem.NETWORK_ERROR":
    "Le serveur est injoignable. Vérifiez votre connexion à internet, puis réessayez.",
  "problem.BAD_REQUEST": "La demande n’a pas été comprise. Rechargez la page et réessayez.",
  "problem.MALFORMED_JSON": "La demande n’a pas été comprise. Rechargez la page et réessayez.",
  "problem.UNAUTHORIZED": "Votre session a pris fin. Reconnectez-vous pour continuer.",
  "problem.FORBIDDEN": "Votre compte ne permet pas cette action.",
  "problem.NOT_FOUND": "Introuvable : l’élément a peut-être été supprimé, ou le lien est erroné.",
  "problem.CONFLICT": "Cela a changé entre-temps. Rechargez la page et réessayez.",
  "problem.PAYLOAD_TOO_LARGE":
    "C’est trop volumineux. Choisissez un fichier plus petit (10 Mo au plus).",
  "problem.UNSUPPORTED_MEDIA_TYPE": "Ce type de fichier ne peut pas être envoyé ici.",
  "problem.VALIDATION_FAILED": "Certaines réponses sont à corriger : voyez chacune ci-dessous.",
  "problem.RATE_LIMITED":
    "Vous avez fait de nombreux essais en peu de temps. Patientez une minute, puis réessayez.",
  "problem.INTERNAL_ERROR":
    "Une erreur s’est produite de notre côté et rien n’a été modifié. Réessayez dans quelques minutes ; si cela se reproduit, écrivez à {contact}.",
  "problem.BAD_GATEWAY":
    "Le service ne répond pas pour le moment. Votre saisie reste sur cette page : réessayez dans quelques minutes.",
  "problem.SERVICE_UNAVAILABLE":
    "Le service est occupé ou en cours de redémarrage. Patientez quelques secondes, puis réessayez.",
  "problem.NOT_READY": "Le service démarre. Patientez quelques secondes, puis réessayez.",
  "problem.GATEWAY_TIMEOUT":
    "Le service a mis trop de temps à répondre. Réessayez dans une minute ; l’action a peut-être abouti, vérifiez d’abord la page.",
  "problem.UPSTREAM_UNHEALTHY":
    "Le service ne répond pas pour le moment. Réessayez dans quelques minutes.",

  "problem.INVALID_CREDENTIALS":
    "Cette adresse e-mail et ce mot de passe ne correspondent à aucun compte.",
  "problem.INVALID_TOKEN": "Votre session a pris fin. Reconnectez-vous pour continuer.",
  "problem.INVALID_SESSION": "Votre session a pris fin. Reconnectez-vous pour continuer.",
  "problem.INVALID_REFRESH_TOKEN": "Votre session a pris fin. Reconnectez-vous pour continuer.",
  "problem.REFRESH_TOKEN_REUSED":
    "Par sécurité, cette connexion a été fermée partout. Reconnectez-vous.",
  "problem.ACCOUNT_DISABLED":
    "Ce compte est désactivé. Écrivez à {contact} si vous pensez que c’est une erreur.",
  "problem.CSRF_TOKEN_MISSING": "Cette page n’est plus à jour. Rechargez-la et réessayez.",
  "problem.CSRF_TOKEN_INVALID": "Cette page n’est plus à jour. Rechargez-la et réessayez.",
  "problem.LOGIN_THROTTLED":
    "Trop de tentatives échouées. Patientez quelques minutes avant de réessayer.",
  "problem.EMAIL_TAKEN": "Un compte utilise déjà cette adresse e-mail.",
  "problem.PASSWORD_INCORRECT": "Le mot de passe actuel est incorrect.",
  "problem.INVALID_ACCOUNT_TOKEN": "Ce lien a expiré ou a déjà servi. Demandez-en un nouveau.",
  "problem.EMAIL_NOT_VERIFIED":
    "Confirmez d’abord votre adresse e-mail : ouvrez le lien reçu, ou demandez-en un nouveau sur la page de votre compte.",
  "problem.EMAIL_ALREADY_VERIFIED": "Votre adresse e-mail est déjà confirmée.",
  "problem.MFA_REQUIRED": "Saisissez le code à 6 chiffres de votre application d’authentification.",
  "problem.MFA_INVALID": "Ce code est incorrect ou a expiré. Saisissez le code le plus récent.",
  "problem.MFA_ENROLMENT_REQUIRED":
    "Activez la connexion en deux étapes avant d’utiliser ces pages.",
  "problem.MFA_ALREADY_ENABLED": "La connexion en deux étapes est déjà activée.",
  "problem.MFA_NOT_ENABLED": "La connexion en deux étapes n’est pas activée.",
  "problem.MFA_ENROLMENT_NOT_STARTED":
    "Recommencez l’activation de la connexion en deux étapes : la précédente a expiré.",
  "problem.CANNOT_CHANGE_OWN_ACCOUNT": "Vous ne pouvez pas faire cela sur votre propre compte.",

  "problem.PROGRAM_CODE_TAKEN": "Une autre formation a déjà ce code.",
  "problem.INTAKE_TERM_TAKEN": "Cette formation a déjà une session de ce nom.",
  "problem.APPLICATION_EXISTS":
    "Vous avez déjà une candidature pour cette session : retrouvez-la dans Mes candidatures.",
  "problem.APPLICATION_NOT_EDITABLE":
    "Cette candidature a été déposée : elle ne peut plus être modifiée.",
  "problem.PROGRAM_INACTIVE": "Cette formation ne reçoit pas de candidatures.",
  "problem.INTAKE_NOT_OPEN": "Les candidatures pour cette session ne sont pas encore ouvertes.",
  "problem.APPLICATION_DEADLINE_PASSED": "La date limite de cette session est passée.",
  "problem.REQUIRED_DOCUMENTS_MISSING":
    "Des documents requis manquent. Ajoutez-les dans la partie Documents.",
  "problem.APPLICATION_FEE_UNPAID":
    "Les frais de dossier ne sont pas encore payés. Réglez-les dans la partie Frais de dossier.",
  "problem.ILLEGAL_TRANSITION": "Cette action n’est pas possible à ce stade de la candidature.",
  "problem.TRANSITION_FORBIDDEN": "Cette étape revient au service des admissions.",
  "problem.PRECONDITION_FAILED":
    "Cela a été modifié ailleurs depuis l’ouverture de la page. Rechargez-la pour voir la dernière version.",

  "problem.DOCUMENT_TOO_LARGE": "Le fichier dépasse 10 Mo. Choisissez un fichier plus petit.",
  "problem.DOCUMENT_TYPE_NOT_ALLOWED":
    "Ce fichier n’est ni un PDF, ni un PNG, ni un JPEG. Enregistrez-le dans l’un de ces formats et choisissez-le à nouveau.",
  "problem.DOCUMENT_EMPTY": "Le fichier est vide. Choisissez-le à nouveau.",
  "problem.DOCUMENT_TRUNCATED":
    "Le fichier est incomplet (son enregistrement n’était peut-être pas terminé). Enregistrez-le à nouveau et choisissez-le.",
  "problem.DOCUMENT_LIMIT_REACHED":
    "Cette candidature contient autant de documents que possible. Retirez d’abord un document inutile.",
  "problem.DOCUMENTS_CLOSED": "Cette candidature est close : elle ne reçoit plus de documents.",

  "problem.IDEMPOTENCY_KEY_MISSING":
    "Le paiement n’a pas pu commencer. Rechargez la page et réessayez.",
  "problem.IDEMPOTENCY_KEY_REUSED":
    "Le paiement n’a pas pu commencer. Rechargez la page et réessayez.",
  "problem.FEE_NOT_REQUIRED": "Cette formation ne demande pas de frais de dossier.",
  "problem.FEE_ALREADY_PAID": "Les frais de dossier sont déjà payés.",
  "problem.FEE_WAIVED": "Vous êtes dispensé·e des frais de dossier : il n’y a rien à payer.",
  "problem.PAYMENT_PENDING":
    "Un paiement est déjà en attente. Terminez-le, ou attendez qu’il expire.",
  "problem.PAYMENT_SHORT":
    "Le montant reçu est inférieur aux frais : le paiement n'a pas été confirmé. Rien n'a changé.",
  "problem.ILLEGAL_PAYMENT_TRANSITION": "Ce paiement ne peut plus être modifié.",
  "problem.REFUND_EXCEEDS_PAID": "C’est plus que ce qui reste à rembourser.",
  "problem.RECEIPT_NOT_AVAILABLE": "Ce paiement n’a pas de reçu : il n’a pas abouti.",
  "problem.PAYMENT_PROVIDER_ERROR":
    "Le service de paiement par carte n’a pas répondu. Rien n’a été débité : réessayez dans quelques minutes.",
  "problem.WEBHOOK_SIGNATURE_INVALID": "L’avis de paiement n’a pas pu être vérifié.",

  "problem.OFFER_LETTER_NOT_AVAILABLE": "Cette candidature n’a pas de lettre d’offre.",
  "problem.NO_SEATS_AVAILABLE": "Toutes les places de cette session sont prises.",
  "problem.CAPACITY_BELOW_TAKEN": "La capacité ne peut pas être inférieure aux places déjà prises.",
  "problem.OFFER_EXPIRED": "Le délai pour répondre à cette offre est passé.",
  "problem.WAITLIST_EMPTY": "Personne n’est sur la liste d’attente.",
  "problem.BULK_REFUSED": "Rien n’a pu être modifié : chaque refus est indiqué.",
  "problem.CONDITIONS_MET": "Toutes les conditions de cette offre sont remplies.",
  "problem.CONDITIONS_CLOSED":
    "Les conditions de cette offre sont réglées : rien de plus n’est nécessaire.",
  "problem.CONDITION_SETTLED":
    "Le service a déjà statué sur cette condition : elle ne reçoit plus de justificatif.",
  "problem.DEFERRAL_NOT_ALLOWED": "Seule une place que vous avez acceptée peut être reportée.",
  "problem.DEFERRAL_PENDING": "Vous avez déjà demandé un report : attendez la réponse du service.",
  "problem.DEFERRAL_CLOSED": "Cette demande a déjà été traitée.",
  "problem.DEFERRAL_CONFLICT": "Vous avez déjà une candidature pour cette session.",
  "problem.REASON_CODE_TAKEN": "Ce code de motif est déjà utilisé.",

  "problem.REVIEWER_NOT_IN_POOL": "Cette personne n’évalue pas cette formation.",
  "problem.REVIEWER_CONFLICTED":
    "Cette personne a déclaré un conflit d’intérêts avec cette candidature.",
  "problem.NO_REVIEWER_AVAILABLE": "Aucun évaluateur n’est disponible pour cette candidature.",
  "problem.ALREADY_ASSIGNED": "Cette personne est déjà désignée.",
  "problem.ASSIGNMENT_CLOSED": "Cette candidature n’est plus ouverte aux évaluateurs.",
  "problem.NOT_ASSIGNED": "Cette candidature ne vous est pas attribuée.",
  "problem.CONFLICT_OF_INTEREST": "Vous avez déclaré un conflit d’intérêts avec cette candidature.",
  "problem.RUBRIC_MISSING": "Cette formation n’a pas encore de grille d’évaluation.",
  "problem.RUBRIC_IN_USE":
    "Cette grille a déjà servi à noter des candidatures : elle ne peut plus changer.",
  "problem.REVIEWS_CLOSED": "Cette candidature n’est plus en cours d’examen.",
  "problem.INTERVIEW_CLASH": "Un membre du jury a un autre entretien à ce moment-là.",
  "problem.INTERVIEW_NOT_OPEN": "Ce créneau d’entretien est pris ou annulé.",
  "problem.INTERVIEW_NOT_ALLOWED": "Cette candidature n’est pas à l’étape de l’entretien.",
  "problem.INTERVIEW_ALREADY_SCHEDULED": "Cette candidature a déjà un entretien.",
  "problem.INTERVIEW_CLOSED":
    "Cet entretien est annulé ou a commencé : il ne peut plus être modifié ici.",
  "problem.INTERVIEW_STATE_CONFLICT":
    "Vous avez demandé un autre horaire : attendez que le service vous en propose un.",
  "problem.INTERVIEW_NOT_HELD": "Cet entretien n’a pas encore eu lieu.",
  "problem.NOT_ON_PANEL": "Vous ne faites pas partie du jury de cet entretien.",

  "problem.WEBHOOK_DELIVERY_PENDING": "Cet envoi est encore en cours de nouvelles tentatives.",

  "rule.required": "Ce champ est obligatoire.",
  "rule.type": "Saisissez cette valeur en chiffres.",
  "rule.format": "Ce n’est pas sous la forme demandée : l’indication explique comment l’écrire.",
  "rule.format.email": "Saisissez une adresse e-mail valide, par exemple nom@exemple.fr.",
  "rule.format.date":
    "Saisissez une date réelle sous la forme année-mois-jour, par exemple 2007-12-10.",
  "rule.format.date-time": "Saisissez une date et une heure réelles.",
  "rule.format.uuid": "Cela ne désigne rien de connu. Rechargez la page et choisissez à nouveau.",
  "rule.format.single-line-text":
    "Écrivez-le sur une seule ligne, avec des mots, pas seulement des espaces.",
  "rule.format.multi-line-text":
    "Écrivez-le avec des mots, sans caractères inhabituels et pas seulement des espaces.",
  "rule.pattern": "Ce n’est pas sous la forme demandée : l’indication explique comment l’écrire.",
  "rule.minLength": "Saisissez au moins {limit} caractères.",
  "rule.maxLength": "Saisissez {limit} caractères au plus.",
  "rule.minimum": "Saisissez {limit} ou plus.",
  "rule.maximum": "Saisissez {limit} ou moins.",
  "rule.minItems": "Indiquez-en au moins {limit}.",
  "rule.maxItems": "Indiquez-en {limit} au plus.",
  "rule.uniqueItems": "Indiquez chacun une seule fois.",
  "rule.enum": "Choisissez l’une des options proposées.",
  "rule.unknownField": "Ce formulaire ne prend pas cela. Rechargez la page.",
  "rule.future": "Saisissez une date à venir.",
  "rule.later": "Cela doit venir après l’élément précédent.",
  "rule.notFound": "Cela ne correspond à rien de connu. Vérifiez, ou choisissez à nouveau.",
  "rule.duplicate": "C’est déjà utilisé. Choisissez autre chose.",
  "rule.notAllowed": "Ce choix n’est pas possible ici.",
  "rule.invalid": "Cette valeur ne peut pas être acceptée. Vérifiez-la et réessayez.",
  "ruleFor.password.minLength": "Votre mot de passe doit compter de 10 à 128 caractères.",
  "ruleFor.password.maxLength": "Votre mot de passe doit compter de 10 à 128 caractères.",
  "ruleFor.newPassword.minLength":
    "Votre nouveau mot de passe doit compter de 10 à 128 caractères.",
  "ruleFor.newPassword.maxLength":
    "Votre nouveau mot de passe doit compter de 10 à 128 caractères.",
  "ruleFor.fullName.minLength": "Saisissez votre nom complet.",
  "ruleFor.graduationYear.type": "Saisissez l’année en 4 chiffres, par exemple 2024.",
  "ruleFor.graduationYear.minimum": "Saisissez une année à partir de 1900.",
  "ruleFor.graduationYear.maximum": "Saisissez une année antérieure à 2100.",
  "ruleFor.phone.pattern":
    "Saisissez le numéro avec l’indicatif du pays, par exemple +33 1 23 45 67 89.",
  "ruleFor.nationality.pattern": "Saisissez un code pays de 2 lettres, par exemple FR ou GB.",
  "ruleFor.country.pattern": "Saisissez un code pays de 2 lettres, par exemple FR ou GB.",
  "ruleFor.file.required": "Choisissez un fichier à envoyer.",
  "ruleFor.type.enum": "Choisissez le type de ce document.",
  "ruleFor.toIntakeId.format": "Choisissez la session vers laquelle reporter votre place.",
  "ruleFor.toIntakeId.required": "Choisissez la session vers laquelle reporter votre place.",
  "ruleFor.toIntakeId.later": "Choisissez une session ultérieure de la même formation.",
};
