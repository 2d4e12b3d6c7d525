import { useEffect, useState } from "preact/hooks";
import type { ApiAnswer, ApiError } from "../../../api/client.ts";
import type { StaffSession } from "../../ui/session.ts";

/**
 * One thing a page shows, read once the session is known and again when `key` changes (a
 * filter, a change made from the page): `data` null until it has come, `failure` if refused.
 */
export function useLoad<T>(
  session: StaffSession,
  load: () => Promise<ApiAnswer<T>>,
  key: unknown[] = [],
) {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    let current = true;
    setLoading(true);
    load().then((answer) => {
      if (!current) return;
      setLoading(false);
      if (answer.ok) {
        setData(answer.data);
        setFailure(null);
      } else setFailure(answer);
    });
    return () => {
      current = false;
    };
  }, [session.status, ...key]);
  return { data, failure, loading };
}
