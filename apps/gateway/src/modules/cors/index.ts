import { HttpProblem } from "@platform/server";
import { Elysia } from "elysia";
import { corsHeaders, preflightHeaders } from "./service.ts";

export type CorsDeps = { origins: ReadonlySet<string> };

/** Adds Origin to a Vary header without dropping what the upstream put there. */
function addVary(headers: Headers) {
  const vary = headers.get("vary");
  if (!vary) headers.set("vary", "Origin");
  else if (!/\borigin\b/i.test(vary)) headers.set("vary", `${vary}, Origin`);
}

/**
 * Preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered here: 204 with
 * the allowances for a listed origin, 403 problem+json for any other. Every other response,
 * proxied or the gateway's own, gets the origin's CORS headers when the origin is listed, and
 * `Vary: Origin` always (a cache must not hand one origin's answer to another).
 */
export const cors = ({ origins }: CorsDeps) =>
  new Elysia({ name: "cors" })
    .onRequest(({ request, set }) => {
      const origin = request.headers.get("origin");
      const isPreflight =
        request.method === "OPTIONS" && request.headers.has("access-control-request-method");
      if (!isPreflight) return;
      const headers = corsHeaders(origin, origins);
      if (!headers) {
        throw new HttpProblem("FORBIDDEN", {
          detail: `Origin ${origin ?? "(none)"} may not call this API from a browser`,
        });
      }
      set.status = 204;
      Object.assign(set.headers, headers, preflightHeaders(), { vary: "Origin" });
      return new Response(null, { status: 204, headers: set.headers as Record<string, string> });
    })
    .mapResponse({ as: "global" }, ({ request, response, set }) => {
      const headers = corsHeaders(request.headers.get("origin"), origins);
      if (response instanceof Response) {
        addVary(response.headers);
        if (headers)
          for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
        return response;
      }
      set.headers.vary = "Origin";
      if (headers) Object.assign(set.headers, headers);
      return undefined;
    });
