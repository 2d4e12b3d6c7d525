import { useEffect, useState } from "preact/hooks";
import { admissions } from "../api/admissions.ts";
import type { User } from "../api/types.ts";
import { APPLICANT_RETURN, returnPath } from "../return-path.ts";

export type SessionState =
  | { status: "loading" }
  | { status: "anonymous" }
  | { status: "signed-in"; user: User };

/** Where to come back after signing in: an applicant's portal page on this origin (returnPath). */
export const safeNext = (value: string | null, origin = location.origin): string =>
  returnPath(value, APPLICANT_RETURN, origin);

/** The sign-in page, then back here (with the query: Stripe's return page needs its `payment`). */
export const loginUrl = () =>
  `/portal/login?next=${encodeURIComponent(location.pathname + location.search)}`;

/** The signed-in account, or anonymous. `required`: an anonymous visitor is sent to sign in. */
export function useSession(required = false): SessionState {
  const [state, setState] = useState<SessionState>({ status: "loading" });
  useEffect(() => {
    admissions.me().then((answer) => {
      if (answer.ok) setState({ status: "signed-in", user: answer.data });
      else if (required) location.assign(loginUrl());
      else setState({ status: "anonymous" });
    });
  }, [required]);
  return state;
}
