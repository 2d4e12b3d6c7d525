import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { ApiError } from "../../api/client.ts";
import type { Application } from "../../api/types.ts";
import { applicationIdOf } from "../../routes.ts";
import { type SessionState, useSession } from "../../ui/session.ts";

export type ApplicationState = {
  session: SessionState;
  id: string;
  application: Application | null;
  setApplication: (a: Application) => void;
  /** Why it could not be read (not yours, gone, the network). */
  failure: ApiError | null;
};

/** The application the address names, once signed in (anonymous visitors go to sign in). */
export function useApplication(): ApplicationState {
  const session = useSession(true);
  const id = applicationIdOf();
  const [application, setApplication] = useState<Application | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    admissions.application(id).then((answer) => {
      if (answer.ok) setApplication(answer.data);
      else setFailure(answer);
    });
  }, [session.status]);
  return { session, id, application, setApplication, failure };
}

/** Loads `load` once signed in (and again when `again` changes); null until it answers. */
export function useLoaded<T>(
  ready: boolean,
  load: () => Promise<{ ok: true; data: T } | ApiError>,
  again: unknown = 0,
): { data: T | null; failure: ApiError | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!ready) return;
    load().then((answer) => {
      if (answer.ok) {
        setData(answer.data);
        setFailure(null);
      } else setFailure(answer);
    });
  }, [ready, round, again]);
  return { data, failure, reload: () => setRound((n) => n + 1) };
}
