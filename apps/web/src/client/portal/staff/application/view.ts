import type { ComponentType } from "preact";
import type { ApiError } from "../../api/client.ts";
import type { Application, Document, User } from "../../api/types.ts";
import type { ApplicationReviews } from "../types.ts";

/** What every panel of the staff application page reads: loaded once by the page. */
export type ApplicationView = {
  application: Application;
  /** The signed-in staff member. */
  me: User;
  isAdmin: boolean;
  /** null while loading, or when the API refused them (`reviewsRefused`). */
  reviews: ApplicationReviews | null;
  reviewsRefused: ApiError | null;
  documents: Document[] | null;
  /** A panel changed something: read the application, its reviews and documents again. */
  reload: () => void;
  /** A panel's change answered with the application's new state (a decision). */
  replace: (next: Application) => void;
};

/** A part of the page; it renders nothing where it does not apply. */
export type ApplicationPanel = {
  key: string;
  Panel: ComponentType<{ view: ApplicationView }>;
};

/** A reviewer reading a blind programme sees no name: the page says so in words. */
export const isBlindToMe = (view: ApplicationView) =>
  (view.reviews?.blindReview ?? false) && !view.isAdmin;
