import type { DocumentType, ProgramCreate } from "../modules/catalog/model.ts";

const UG_DOCS: DocumentType[] = ["transcript", "identity_document", "personal_statement"];
const PG_DOCS: DocumentType[] = ["transcript", "identity_document", "cv", "recommendation_letter"];
const PHD_DOCS: DocumentType[] = [...PG_DOCS, "research_proposal"];

type LevelDefaults = Omit<ProgramCreate, "code" | "name" | "department" | "description">;

/** A program maker with one level's usual duration, fee, requirements and documents. */
const ofLevel =
  (defaults: LevelDefaults) =>
  (
    code: string,
    name: string,
    department: string,
    description: string,
    extra: Partial<ProgramCreate> = {},
  ): ProgramCreate => ({ code, name, department, description, ...defaults, ...extra });

const bachelor = ofLevel({
  level: "bachelor",
  durationMonths: 36,
  applicationFee: { amount: 2_500, currency: "EUR" },
  entryRequirements: "Upper-secondary diploma; mathematics and English at advanced level.",
  requiredDocuments: UG_DOCS,
});

const master = ofLevel({
  level: "master",
  durationMonths: 12,
  applicationFee: { amount: 7_500, currency: "EUR" },
  entryRequirements: "A relevant bachelor's degree with at least upper second-class honours.",
  requiredDocuments: PG_DOCS,
});

const COMPUTING = "School of Computing";
const ENGINEERING = "School of Engineering";
const BUSINESS = "Northbridge Business School";
const HEALTH = "School of Health Sciences";
const ARTS = "Faculty of Arts and Humanities";
const LAW = "School of Law";
const SCIENCE = "Faculty of Science";

/** A fictional university's catalog: the shape and variety of a real one. */
export const DEMO_PROGRAMS: ProgramCreate[] = [
  bachelor(
    "CS-BSC",
    "Computer Science",
    COMPUTING,
    "Algorithms, systems and software engineering, with a year-long team project.",
  ),
  bachelor(
    "SE-BSC",
    "Software Engineering",
    COMPUTING,
    "Building dependable software: requirements, design, testing and operations.",
    { durationMonths: 48 },
  ),
  master(
    "DS-MSC",
    "Data Science",
    COMPUTING,
    "Statistics, machine learning and data engineering for real-world datasets.",
  ),
  master(
    "CYB-MSC",
    "Cyber Security",
    COMPUTING,
    "Secure systems, cryptography, incident response and security governance.",
  ),
  {
    ...master(
      "AI-PHD",
      "Artificial Intelligence",
      COMPUTING,
      "Doctoral research in machine learning, reasoning and human-centred AI.",
    ),
    level: "doctorate",
    durationMonths: 48,
    applicationFee: { amount: 0, currency: "EUR" },
    requiredDocuments: PHD_DOCS,
    entryRequirements:
      "A master's degree in a related field and a research proposal of up to 3,000 words.",
  },
  bachelor(
    "ME-BENG",
    "Mechanical Engineering",
    ENGINEERING,
    "Mechanics, thermodynamics and design, accredited by the engineering council.",
    { durationMonths: 48 },
  ),
  bachelor(
    "EE-BENG",
    "Electrical and Electronic Engineering",
    ENGINEERING,
    "Circuits, power systems, control and embedded electronics.",
    { durationMonths: 48 },
  ),
  master(
    "REN-MSC",
    "Renewable Energy Systems",
    ENGINEERING,
    "Wind, solar and storage technologies and the grids that connect them.",
  ),
  bachelor(
    "BA-BSC",
    "Business Administration",
    BUSINESS,
    "Management, finance, marketing and strategy with a placement year option.",
  ),
  bachelor(
    "ACC-BSC",
    "Accounting and Finance",
    BUSINESS,
    "Financial reporting, audit, corporate finance and taxation.",
  ),
  master(
    "MBA",
    "Master of Business Administration",
    BUSINESS,
    "A general management programme for professionals with three or more years' experience.",
    {
      durationMonths: 24,
      applicationFee: { amount: 10_000, currency: "EUR" },
      requiredDocuments: [
        "transcript",
        "identity_document",
        "cv",
        "recommendation_letter",
        "personal_statement",
      ],
    },
  ),
  {
    ...bachelor(
      "NUR-BSC",
      "Nursing (Adult)",
      HEALTH,
      "Clinical practice and theory leading to professional registration.",
    ),
    requiredDocuments: [...UG_DOCS, "recommendation_letter"],
  },
  master(
    "PH-MSC",
    "Public Health",
    HEALTH,
    "Epidemiology, health policy and the prevention of disease in populations.",
  ),
  {
    ...bachelor(
      "PHC-DIP",
      "Pharmacy Technician",
      HEALTH,
      "Dispensing, pharmaceutical science and patient care.",
    ),
    level: "diploma",
    durationMonths: 24,
    applicationFee: { amount: 0, currency: "EUR" },
    requiredDocuments: ["transcript", "identity_document"],
  },
  bachelor(
    "HIS-BA",
    "History",
    ARTS,
    "From the ancient world to the present, with archival research in the final year.",
  ),
  bachelor(
    "ENG-BA",
    "English Literature",
    ARTS,
    "Literature in English from Chaucer to the contemporary novel.",
  ),
  {
    ...bachelor(
      "ART-BA",
      "Fine Art",
      ARTS,
      "Studio practice in painting, sculpture and digital media.",
    ),
    requiredDocuments: [...UG_DOCS, "portfolio"],
  },
  master(
    "TRN-MA",
    "Translation Studies",
    ARTS,
    "Professional translation between English and a second language of your choice.",
    { requiredDocuments: ["transcript", "identity_document", "cv", "language_certificate"] },
  ),
  {
    ...bachelor(
      "LLB",
      "Law",
      LAW,
      "A qualifying law degree covering the foundations of legal knowledge.",
    ),
    code: "LAW-LLB",
  },
  master(
    "LLM-INT",
    "International Law",
    LAW,
    "Public international law, human rights and international dispute resolution.",
  ),
  bachelor(
    "BIO-BSC",
    "Biology",
    SCIENCE,
    "Molecular, cellular and organismal biology with field courses.",
  ),
  bachelor(
    "CHEM-BSC",
    "Chemistry",
    SCIENCE,
    "Organic, inorganic and physical chemistry with extensive laboratory work.",
  ),
  bachelor(
    "PHY-BSC",
    "Physics",
    SCIENCE,
    "Classical and quantum physics, astrophysics and computational methods.",
  ),
  {
    ...bachelor(
      "DATA-CERT",
      "Data Analytics",
      COMPUTING,
      "Spreadsheets, SQL and dashboards in one part-time semester.",
    ),
    level: "certificate",
    durationMonths: 6,
    applicationFee: { amount: 0, currency: "EUR" },
    requiredDocuments: [],
    entryRequirements: "None: open to all adults.",
  },
];
