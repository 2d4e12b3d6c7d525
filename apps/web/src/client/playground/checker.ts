import { afterFirstPaint } from "../shared/after-first-paint.ts";
import type { Completion, Diagnostic, FromWorker, ToWorker } from "./worker/protocol.ts";

export type CheckerState = "waiting" | "loading" | "ready" | "failed";

export type Checker = {
  check: (code: string) => Promise<Diagnostic[] | null>;
  complete: (
    code: string,
    position: number,
  ) => Promise<{ from: number; options: Completion[] } | null>;
  onState: (listener: (state: CheckerState) => void) => void;
};

/**
 * The page's side of the TypeScript worker. The worker (about 1 MB gzip) is started only after
 * the page's first paint and once the browser is idle, so the editor is usable at once; requests
 * made before then wait for it. A worker that cannot start (or dies) answers null: the page says
 * so and running still works.
 */
export function createChecker(): Checker {
  const url = document.querySelector<HTMLMetaElement>('meta[name="worker-typescript"]')?.content;
  let state: CheckerState = "waiting";
  const listeners: ((state: CheckerState) => void)[] = [];
  const setState = (next: CheckerState) => {
    state = next;
    for (const listener of listeners) listener(next);
  };
  const pending = new Map<number, (message: FromWorker | null) => void>();
  let nextId = 1;
  let started: Promise<Worker | null> | null = null;

  const fail = () => {
    setState("failed");
    for (const resolve of pending.values()) resolve(null);
    pending.clear();
  };
  const start = () => {
    started ??= new Promise((resolve) => {
      if (!url) {
        fail();
        resolve(null);
        return;
      }
      setState("loading");
      const worker = new Worker(url, { type: "module", name: "typescript" });
      worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
        const message = event.data;
        if (message.kind === "ready") {
          // benchmarks/web reads when the checker became usable, beside first paint.
          performance.mark("typescript-ready");
          setState("ready");
          resolve(worker);
          return;
        }
        pending.get(message.id)?.(message);
        pending.delete(message.id);
      });
      worker.addEventListener("error", () => {
        fail();
        resolve(null);
      });
    });
    return started;
  };
  afterFirstPaint(() => void start());

  type Request =
    | Omit<Extract<ToWorker, { kind: "check" }>, "id">
    | Omit<Extract<ToWorker, { kind: "complete" }>, "id">;
  const ask = async (request: Request) => {
    const worker = await start();
    if (!worker) return null;
    const id = nextId++;
    return new Promise<FromWorker | null>((resolve) => {
      pending.set(id, resolve);
      worker.postMessage({ ...request, id } as ToWorker);
    });
  };

  return {
    check: async (code) => {
      const answer = await ask({ kind: "check", code });
      return answer?.kind === "diagnostics" ? answer.diagnostics : null;
    },
    complete: async (code, position) => {
      const answer = await ask({ kind: "complete", code, position });
      return answer?.kind === "completions" ? { from: answer.from, options: answer.options } : null;
    },
    onState: (listener) => {
      listeners.push(listener);
      listener(state);
    },
  };
}
