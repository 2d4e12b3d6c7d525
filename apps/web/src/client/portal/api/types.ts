/**
 * The admissions API's own response and request types, derived from its schemas (model.ts
 * files, `typeof X.static`). Types only: `import type` is erased by the bundler, so no schema
 * library reaches the browser, and a changed schema fails `tsc` here instead of a page at run
 * time. (The admissions types are not in @platform/contracts; this is the one file that reaches
 * into that app.)
 */

export type { EmailVerification } from "../../../../../admissions/src/modules/account/model.ts";
export type {
  ApplicationCreate,
  ApplicationUpdate,
} from "../../../../../admissions/src/modules/applications/model.ts";
export type {
  Accepted,
  LoginResult,
  RegisterBody,
} from "../../../../../admissions/src/modules/auth/model.ts";
export type {
  Intake,
  Program,
  ProgramDetail,
} from "../../../../../admissions/src/modules/catalog/model.ts";
export type { DataRequest } from "../../../../../admissions/src/modules/data-rights/model.ts";
export type { Checklist, Document } from "../../../../../admissions/src/modules/documents/model.ts";
export type {
  FeeSummary,
  Payment,
  Receipt,
} from "../../../../../admissions/src/modules/payments/model.ts";
export type {
  Profile,
  ProfileChange,
} from "../../../../../admissions/src/modules/profile/model.ts";
export type {
  RefereeCreate,
  RefereeInvitation,
  Reference,
  ReferenceList,
} from "../../../../../admissions/src/modules/references/model.ts";
export type { Session } from "../../../../../admissions/src/modules/sessions/model.ts";
export type {
  PersonalDetails,
  User,
} from "../../../../../admissions/src/modules/users/model.ts";
export type {
  Application,
  ApplicationStatus,
  Transition,
} from "../../../../../admissions/src/modules/workflow/model.ts";

/** Every list the API answers (docs/admissions.md, Pagination). */
export type PageOf<T> = {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
};
