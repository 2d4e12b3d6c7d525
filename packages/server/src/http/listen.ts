import type { AnyElysia } from "elysia";
import { inRequestScope } from "../observability/tracing.ts";
import { type Listener, listenPipelining } from "./pipelining-listener.ts";
import { routable } from "./request-target.ts";

export type { Listener };

export type ListenOptions = {
  port: number;
  hostname: string;
  /** Bodies past this are refused before the app sees them (Bun's own default: 128 MiB). */
  maxRequestBodySize?: number;
  /**
   * Answer pipelined HTTP/1.1 requests in order (HTTP_PIPELINING), at more CPU per request;
   * off, Bun.serve closes such a connection unanswered (pipelining-listener.ts says why).
   */
  pipelining?: boolean;
};

/**
 * The app's fetch, each request run inside its scope (request-scope.ts, tracing.ts), with a URL
 * Elysia routes right whatever the Host (request-target.ts).
 */
export function scopedFetch(app: AnyElysia): (request: Request) => Response | Promise<Response> {
  const handle = app.fetch;
  return (request) => {
    const target = routable(request);
    return inRequestScope(target, () => handle(target));
  };
}

/** Elysia's listen() default (Bun's own is 10 s). */
const IDLE_TIMEOUT_SECONDS = 30;
/** Bun.serve's own default, kept for the pipelining listener when an app sets none. */
const BUN_MAX_REQUEST_BODY = 128 * 1024 * 1024;

/**
 * The app on a port, every request through `scopedFetch` (its scope, a URL Elysia routes
 * right). Bun.serve directly, not app.listen(): listen() hands most routes to Bun's own router,
 * past any wrapper of app.fetch. What serve() starts, and what tests start to reach an app over
 * a real socket.
 */
export async function listen(app: AnyElysia, opts: ListenOptions): Promise<Listener> {
  const fetch = scopedFetch(app);
  const listener = opts.pipelining
    ? await listenPipelining(fetch, {
        port: opts.port,
        hostname: opts.hostname,
        maxRequestBodySize: opts.maxRequestBodySize ?? BUN_MAX_REQUEST_BODY,
        idleTimeoutSeconds: IDLE_TIMEOUT_SECONDS,
      })
    : bunListener(app, fetch, opts);
  // What listen() would do: plugins start their timers.
  for (const hook of app.event.start ?? []) void hook.fn(app);
  return listener;
}

function bunListener(
  app: AnyElysia,
  fetch: ReturnType<typeof scopedFetch>,
  opts: ListenOptions,
): Listener {
  const server = Bun.serve({
    port: opts.port,
    hostname: opts.hostname,
    // Elysia turns SO_REUSEPORT on by default: a second copy started by mistake would silently
    // share the port and take half the traffic. A taken port is a start-up error instead.
    reusePort: false,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    ...(opts.maxRequestBodySize ? { maxRequestBodySize: opts.maxRequestBodySize } : {}),
    fetch,
  });
  // Handlers read the client's address from the server (peer.ts).
  app.server = server;
  return {
    url: server.url,
    port: server.port ?? opts.port,
    pendingRequests: () => server.pendingRequests,
    stop: (closeActive) => server.stop(closeActive),
  };
}
