import type { Problem } from "@platform/contracts/problem";
import { useState } from "preact/hooks";
import { upload } from "../api/client.ts";
import type { Document } from "../api/types.ts";

/**
 * One document upload at a time, with its progress (0–1, null when idle) and its refusal. The
 * API judges the file (its bytes, its size): a refusal comes back as a problem said in words.
 */
export function useUpload(applicationId: string) {
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  async function send(type: string, file: File): Promise<Document | null> {
    const form = new FormData();
    form.set("type", type);
    form.set("file", file);
    setProblem(null);
    setProgress(0);
    const answer = await upload<Document>(
      `/applications/${applicationId}/documents/`,
      form,
      setProgress,
    );
    setProgress(null);
    if (answer.ok) return answer.data;
    setProblem(answer.problem);
    return null;
  }
  return { progress, problem, send, setProblem };
}

/** The file an input holds once chosen (and the input emptied, so the same file can go again). */
export function takeFile(event: Event): File | null {
  const input = event.currentTarget as HTMLInputElement;
  const file = input.files?.[0] ?? null;
  input.value = "";
  return file;
}
