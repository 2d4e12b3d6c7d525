import createFetchClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };

/** Every named schema of the platform's APIs: `Schemas["Program"]`, `Schemas["Problem"]`… */
export type Schemas = components["schemas"];
/** The one error body of every service (RFC 9457 problem details with a stable `code`). */
export type Problem = Schemas["Problem"];

export type PlatformClientOptions = Omit<ClientOptions, "baseUrl"> & {
  /** The gateway's origin, e.g. `http://localhost:3000` (or an app's own, for its paths). */
  baseUrl: string;
  /** An admissions access token (from `POST /api/v1/auth/login/`), sent as a Bearer token. */
  accessToken?: string;
};

export type PlatformClient = Client<paths>;

/**
 * A client typed by the platform's OpenAPI document: paths, parameters, bodies, answers and the
 * problem codes of each error are checked by the compiler. Built on openapi-fetch: each call
 * resolves to `{ data, error, response }`, `data` on a 2xx, `error` (a Problem) otherwise.
 */
export function createClient({ accessToken, ...options }: PlatformClientOptions): PlatformClient {
  const client = createFetchClient<paths>(options);
  if (accessToken) {
    client.use({
      onRequest({ request }) {
        request.headers.set("authorization", `Bearer ${accessToken}`);
        return request;
      },
    });
  }
  return client;
}
