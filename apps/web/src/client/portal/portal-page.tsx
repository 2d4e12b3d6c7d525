import type { ComponentType } from "preact";
import { mount } from "../shared/mount.ts";
import type { PortalPageName } from "./routes.ts";
import { STAFF_PAGES } from "./staff/pages.ts";

/**
 * The portal's one entry script. The server-rendered shell names its page in #app's data-page;
 * each page is its own chunk, loaded here, so a page carries only its own code plus the shared
 * chunks (Preact, the API client, the catalogue).
 */
const PAGES: Record<PortalPageName, () => Promise<{ default: ComponentType }>> = {
  programs: () => import("./applicant/programs/ProgramsPage.tsx"),
  program: () => import("./applicant/program/ProgramPage.tsx"),
  login: () => import("./applicant/login/LoginPage.tsx"),
  register: () => import("./applicant/register/RegisterPage.tsx"),
  applications: () => import("./applicant/dashboard/DashboardPage.tsx"),
  application: () => import("./applicant/application/ApplicationPage.tsx"),
  sectionDetails: () => import("./applicant/sections/details/DetailsPage.tsx"),
  sectionQualifications: () => import("./applicant/sections/qualifications/QualificationsPage.tsx"),
  sectionStatement: () => import("./applicant/sections/statement/StatementPage.tsx"),
  sectionDocuments: () => import("./applicant/sections/documents/DocumentsPage.tsx"),
  sectionReferees: () => import("./applicant/sections/referees/RefereesPage.tsx"),
  sectionFee: () => import("./applicant/sections/fee/FeePage.tsx"),
  checkAnswers: () => import("./applicant/check/CheckAnswersPage.tsx"),
  submitted: () => import("./applicant/submitted/SubmittedPage.tsx"),
  withdraw: () => import("./applicant/withdraw/WithdrawPage.tsx"),
  deferral: () => import("./applicant/deferral/DeferralPage.tsx"),
  receipt: () => import("./applicant/receipt/ReceiptPage.tsx"),
  account: () => import("./applicant/account/AccountPage.tsx"),
  profile: () => import("./applicant/profile/ProfilePage.tsx"),
  security: () => import("./applicant/security/SecurityPage.tsx"),
  data: () => import("./applicant/data-rights/DataPage.tsx"),
  forgotPassword: () => import("./applicant/forgot-password/ForgotPasswordPage.tsx"),
  resetPassword: () => import("./applicant/reset-password/ResetPasswordPage.tsx"),
  verifyEmail: () => import("./applicant/verify-email/VerifyEmailPage.tsx"),
  confirmEmailChange: () => import("./applicant/confirm-email-change/ConfirmEmailChangePage.tsx"),
  paymentReturn: () => import("./applicant/payment-return/PaymentReturnPage.tsx"),
  reference: () => import("./applicant/reference/ReferencePage.tsx"),
  ...STAFF_PAGES,
};

const name = document.getElementById("app")?.dataset.page as PortalPageName | undefined;
const load = name ? PAGES[name] : undefined;
load?.().then(({ default: Page }) => mount(<Page />));
