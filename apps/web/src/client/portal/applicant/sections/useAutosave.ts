import type { Problem } from "@platform/contracts/problem";
import { useEffect, useRef, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Application, ApplicationUpdate } from "../../api/types.ts";

export type SaveState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "conflict" }
  | { kind: "error"; problem: Problem };

const AUTOSAVE_MS = 800;

/**
 * A section's fields, saved as the applicant types (a pause of 0.8 s). Each save names the
 * version it was made from (If-Match); if the application changed since (another tab, another
 * device) the API answers 412 and nothing more is saved until the applicant chooses: their
 * text over the newer one, or the newer one. `flush` saves what is pending now (the section's
 * "save and return", and "check your answers").
 */
export function useAutosave<F extends Record<string, string>>(
  application: Application,
  formOf: (a: Application) => F,
  bodyOf: (form: F) => ApplicationUpdate,
  onSaved: (a: Application) => void,
) {
  const [form, setForm] = useState<F>(() => formOf(application));
  const [state, setState] = useState<SaveState>({ kind: "idle" });
  const formRef = useRef(form);
  const version = useRef(application.version);
  const dirty = useRef(false);
  const conflicted = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saving = useRef<Promise<boolean> | null>(null);

  async function save(): Promise<boolean> {
    clearTimeout(timer.current);
    if (saving.current) await saving.current;
    if (conflicted.current) return false;
    if (!dirty.current) return true;
    dirty.current = false;
    setState({ kind: "saving" });
    const run = admissions.updateApplication(
      application.id,
      version.current,
      bodyOf(formRef.current),
    );
    saving.current = run.then((answer) => {
      saving.current = null;
      if (answer.ok) {
        version.current = answer.data.version;
        onSaved(answer.data);
        setState({ kind: "saved", at: answer.data.updatedAt });
        return true;
      }
      dirty.current = true;
      const { code } = answer.problem;
      if (code === "PRECONDITION_FAILED" || code === "VERSION_CONFLICT") {
        conflicted.current = true;
        setState({ kind: "conflict" });
      } else setState({ kind: "error", problem: answer.problem });
      return false;
    });
    return saving.current;
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (name: keyof F) => (value: string) => {
    const next = { ...formRef.current, [name]: value };
    formRef.current = next;
    setForm(next);
    dirty.current = true;
    if (conflicted.current) return; // nothing is saved until the applicant chooses
    clearTimeout(timer.current);
    timer.current = setTimeout(save, AUTOSAVE_MS);
  };

  /** The conflict, settled: load the newer version, then either keep it or put mine on top. */
  async function resolve(keepMine: boolean) {
    const latest = await admissions.application(application.id);
    if (!latest.ok) return setState({ kind: "error", problem: latest.problem });
    version.current = latest.data.version;
    conflicted.current = false;
    onSaved(latest.data);
    if (keepMine) {
      dirty.current = true;
      await save();
    } else {
      dirty.current = false;
      formRef.current = formOf(latest.data);
      setForm(formRef.current);
      setState({ kind: "saved", at: latest.data.updatedAt });
    }
  }

  const problem = state.kind === "error" ? state.problem : null;
  return { form, change, state, problem, save, resolve };
}
