import { useEffect, useState } from "preact/hooks";
import type { ApiAnswer, ApiError } from "../../api/client.ts";
import type { PageOf } from "../../api/types.ts";
import type { StaffSession } from "./session.ts";

/** Rows per page of the staff lists; the API pages (limit/offset), the page never loads it all. */
export const LIST_PAGE = 20;

/** One page of a staff list at a time, loaded once the session is known, with its refusal if any. */
export function usePaged<T>(
  session: StaffSession,
  load: (offset: number) => Promise<ApiAnswer<PageOf<T>>>,
  /** Change it to read the page again (after a change made from the page). */
  reloads = 0,
) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<PageOf<T> | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    load(offset).then((answer) => (answer.ok ? setPage(answer.data) : setFailure(answer)));
  }, [session.status, offset, reloads]);
  return { offset, setOffset, page, failure };
}
