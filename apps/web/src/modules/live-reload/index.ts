import { Elysia } from "elysia";

/** Tells open pages that a new build is in: one server-sent event per rebuild. */
export function createReloadHub() {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type ReloadHub = ReturnType<typeof createReloadHub>;

/** Development only: `bun run dev` mounts it; production has no such route. */
export const liveReload = (hub: ReloadHub) =>
  new Elysia({ name: "live-reload" }).get("/__dev/reload", ({ request }) => {
    const encoder = new TextEncoder();
    let unsubscribe = () => false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(": connected\n\n"));
        unsubscribe = hub.subscribe(() => controller.enqueue(encoder.encode("data: reload\n\n")));
        request.signal.addEventListener("abort", () => {
          unsubscribe();
          controller.close();
        });
      },
      cancel: () => void unsubscribe(),
    });
    return new Response(stream, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
    });
  });
