/**
 * The admissions API's own response and request types, derived from its schemas (model.ts
 * files, `typeof X.static`). Types only: `import type` is erased by the bundler, so no schema
 * library reaches the browser, and a changed schema fails `tsc` here instead of a page at run
 * time. They come from the app's one export for other workspaces, `@platform/admissions/models`.
 */

export type {
  Accepted,
  Application,
  ApplicationCreate,
  ApplicationStatus,
  ApplicationUpdate,
  BankAccount,
  Checklist,
  Condition,
  ConditionList,
  DataRequest,
  Deferral,
  Document,
  EmailVerification,
  FeeSummary,
  Intake,
  Interview,
  LoginResult,
  Payment,
  PersonalDetails,
  Profile,
  ProfileChange,
  Program,
  ProgramDetail,
  ProgramListItem,
  Receipt,
  RefereeCreate,
  RefereeInvitation,
  Reference,
  ReferenceList,
  RegisterBody,
  Session,
  Transition,
  User,
} from "@platform/admissions/models";

/** Every list the API answers (docs/admissions/errors.md, Pagination). */
export type PageOf<T> = {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
};
