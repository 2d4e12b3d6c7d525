import type { ComponentChildren } from "preact";
import type { ApiError } from "../../../api/client.ts";
import { t } from "../../../i18n/use.ts";
import { OfficeProblem } from "./OfficeProblem.tsx";

/**
 * What a page shows of something it reads: "Loading…" until it comes, the refusal if it is
 * refused, the empty message when there is nothing, else the children.
 */
export function Loaded({
  loading,
  failure,
  empty,
  emptyText,
  children,
}: {
  loading: boolean;
  failure: ApiError | null;
  /** Nothing to show (an empty list). */
  empty?: boolean;
  emptyText?: string;
  children: ComponentChildren;
}) {
  if (failure) return <OfficeProblem problem={failure.problem} />;
  if (loading) return <p aria-busy="true">{t("common.loading")}</p>;
  if (empty) return <p data-testid="empty">{emptyText}</p>;
  return <>{children}</>;
}
