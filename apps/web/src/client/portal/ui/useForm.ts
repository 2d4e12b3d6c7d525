import type { Problem } from "@platform/contracts/problem";
import { useState } from "preact/hooks";
import type { ApiAnswer } from "../api/client.ts";

/** A form's sending state: busy while the call runs, the refusal if any, and done once it succeeds. */
export function useSend<T>() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  /** Set once a call succeeded (its answer may be empty: 204). */
  const [done, setDone] = useState<{ data: T } | null>(null);
  async function send(run: () => Promise<ApiAnswer<T>>): Promise<{ data: T } | null> {
    setBusy(true);
    setProblem(null);
    const answer = await run();
    setBusy(false);
    if (!answer.ok) {
      setProblem(answer.problem);
      return null;
    }
    const result = { data: answer.data };
    setDone(result);
    return result;
  }
  return { busy, problem, done, send, setProblem };
}

/** The value of an input event's target. */
export const inputValue = (event: Event) => (event.currentTarget as HTMLInputElement).value;
