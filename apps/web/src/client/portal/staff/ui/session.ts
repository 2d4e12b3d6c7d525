import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { User } from "../../api/types.ts";
import { returnPath, STAFF_RETURN } from "../../return-path.ts";

export type StaffSession =
  | { status: "loading" }
  | { status: "not-staff"; user: User }
  | { status: "signed-in"; user: User };

export const STAFF_LOGIN = "/portal/staff/login";

/** Where to come back to after signing in (and MFA): a staff page on this origin (returnPath). */
export const staffNext = (value: string | null, origin = location.origin): string =>
  returnPath(value, STAFF_RETURN, origin);

/** The signed-in staff member; anyone signed out is sent to the staff sign-in, then back. */
export function useStaffSession(): StaffSession {
  const [state, setState] = useState<StaffSession>({ status: "loading" });
  useEffect(() => {
    admissions.me().then((answer) => {
      if (!answer.ok)
        location.assign(`${STAFF_LOGIN}?next=${encodeURIComponent(location.pathname)}`);
      else if (answer.data.role === "applicant")
        setState({ status: "not-staff", user: answer.data });
      else setState({ status: "signed-in", user: answer.data });
    });
  }, []);
  return state;
}
