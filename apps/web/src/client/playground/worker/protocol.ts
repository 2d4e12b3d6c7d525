/** Messages between the playground page and its TypeScript worker (ts-worker.ts). */
export type Diagnostic = {
  from: number;
  to: number;
  line: number;
  column: number;
  message: string;
  severity: "error" | "warning";
  code: number;
};

export type Completion = { label: string; type: string; boost: number };

export type ToWorker =
  | { kind: "check"; id: number; code: string }
  | { kind: "complete"; id: number; code: string; position: number };

export type FromWorker =
  | { kind: "ready"; version: string }
  | { kind: "diagnostics"; id: number; diagnostics: Diagnostic[] }
  | { kind: "completions"; id: number; from: number; options: Completion[] }
  | { kind: "failed"; id: number; message: string };
