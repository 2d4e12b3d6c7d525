import createFetchClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { RetryOptions } from "./retry.js";
import type { components, operations, paths } from "./schema.js";
import { type FetchLike, type Tokens, transport } from "./transport.js";

export {
  NETWORK_ERROR,
  orThrow,
  PlatformError,
  type Problem,
  UNEXPECTED_RESPONSE,
} from "./errors.js";
export { type ItemOf, type PagedPath, type PaginateInit, paginate } from "./paginate.js";
export type { RetryOptions } from "./retry.js";
export type { Tokens } from "./transport.js";
export type { components, operations, paths };

/** Every named schema of the platform's APIs: `Schemas["Program"]`, `Schemas["Problem"]`… */
export type Schemas = components["schemas"];

export type PlatformClientOptions = Omit<ClientOptions, "baseUrl" | "fetch"> & {
  /** The gateway's origin, e.g. `http://localhost:3000` (or an app's own, for its paths). */
  baseUrl: string;
  /** An admissions access token (from `POST /api/v1/auth/login/`), sent as a Bearer token. */
  accessToken?: string;
  /**
   * The pair login answered: the access token is sent, and when the API refuses it as expired
   * (401 INVALID_TOKEN) the refresh token is traded for a new pair once and the request tried
   * again.
   */
  tokens?: Tokens;
  /** Told of each new pair a refresh brings: keep it (the previous refresh token is spent). */
  onTokens?: (tokens: Tokens) => void;
  /** Retries of idempotent requests (`false`: none). Default: 2 more, within 10 s of waiting. */
  retry?: RetryOptions | false;
  /** Each attempt's deadline in ms, to the response headers. Default 30 000. */
  timeoutMs?: number;
  /** The fetch to send with (default `globalThis.fetch`): a test's, an instrumented one. */
  fetch?: typeof globalThis.fetch;
  /** How a wait before a retry is spent (default a timer); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
};

export type PlatformClient = Client<paths> & {
  /** The sign-in the client now holds (a refresh replaces it). */
  readonly tokens: Tokens | undefined;
  /** Signs the client in (a login's answer) or out (`undefined`). */
  setTokens(tokens: Tokens | undefined): void;
};

/**
 * A client typed by the platform's OpenAPI document: paths, parameters, bodies, answers and the
 * problem codes of each error are checked by the compiler. Built on openapi-fetch: each call
 * resolves to `{ data, error, response }`, `data` on a 2xx, `error` (a Problem) otherwise; a
 * request that gets no answer rejects with a PlatformError (`NETWORK_ERROR`).
 */
export function createClient(options: PlatformClientOptions): PlatformClient {
  const { accessToken, tokens, onTokens, retry, timeoutMs, sleep, ...rest } = options;
  const held: { current?: Tokens } = {
    current: tokens ?? (accessToken ? { accessToken } : undefined),
  };
  const fetch = transport({
    baseUrl: options.baseUrl,
    // Bun's and the DOM's fetch types differ in details a Request-taking fetch never meets.
    fetch: (options.fetch ?? globalThis.fetch) as unknown as FetchLike,
    retry: {
      retries: retry === false ? 0 : (retry?.retries ?? 2),
      baseDelayMs: (retry || undefined)?.baseDelayMs ?? 250,
      maxDelayMs: (retry || undefined)?.maxDelayMs ?? 10_000,
    },
    timeoutMs: timeoutMs ?? 30_000,
    sleep: sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    tokens: held,
    onTokens,
  });
  const client = createFetchClient<paths>({
    ...rest,
    fetch: fetch as unknown as ClientOptions["fetch"],
  });
  // A getter, not a copied value: a refresh replaces the pair after this returns.
  Object.defineProperty(client, "tokens", { get: () => held.current, enumerable: true });
  return Object.assign(client as Client<paths> & { readonly tokens: Tokens | undefined }, {
    setTokens(next: Tokens | undefined) {
      held.current = next;
    },
  });
}
