import type { Problem } from "@platform/contracts/problem";

/**
 * The portal's calls to the admissions API, same origin through the gateway. The sign-in is the
 * API's HttpOnly `__Host-` session cookie, which the browser sends by itself; the tokens the
 * login answer also carries are dropped, never stored. The CSRF token lives in this module's
 * memory only (never localStorage): read from the login answer or `GET /auth/csrf/`, sent as
 * X-CSRF-Token on every unsafe request, and read again once if the API says it changed.
 */
export type ApiOk<T> = { ok: true; status: number; data: T; etag: string | null };
export type ApiError = { ok: false; status: number; problem: Problem };
export type ApiAnswer<T> = ApiOk<T> | ApiError;

export const API = "/api/v1";
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
let csrfToken: string | null = null;

export const rememberCsrf = (token: string | null) => {
  csrfToken = token;
};

/** The answer when no answer came: the network failed, or the server could not be reached. */
export const offline = (): ApiError => ({
  ok: false,
  status: 0,
  problem: {
    type: "about:blank",
    title: "Network error",
    status: 0,
    detail: "The server could not be reached",
    code: "NETWORK_ERROR",
    requestId: "",
  },
});

/** The CSRF token (read once if not yet known), for a request made outside call(): a download. */
export async function csrf(): Promise<string | null> {
  if (csrfToken) return csrfToken;
  const res = await fetch(`${API}/auth/csrf/`).catch(() => null);
  if (!res?.ok) return null;
  csrfToken = ((await res.json()) as { csrfToken: string }).csrfToken;
  return csrfToken;
}

export type CallOptions = { body?: unknown; headers?: Record<string, string> };

async function once<T>(method: string, path: string, opts: CallOptions): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (UNSAFE.has(method)) {
    const token = await csrf();
    if (token) headers["x-csrf-token"] = token;
  }
  let res: Response;
  try {
    res = await fetch(API + path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: "same-origin",
    });
  } catch {
    return offline();
  }
  const json: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (res.ok)
    return { ok: true, status: res.status, data: json as T, etag: res.headers.get("etag") };
  const problem =
    typeof json === "object" && json !== null && "code" in json
      ? (json as Problem)
      : { ...offline().problem, status: res.status, code: `HTTP_${res.status}` };
  return { ok: false, status: res.status, problem };
}

export async function call<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  opts: CallOptions = {},
): Promise<ApiAnswer<T>> {
  const first = await once<T>(method, path, opts);
  // A token from before a sign-in or sign-out: read the current one and try once more.
  if (!first.ok && first.status === 403 && first.problem.code.startsWith("CSRF_TOKEN")) {
    csrfToken = null;
    return once<T>(method, path, opts);
  }
  return first;
}

/**
 * A multipart upload with progress (fetch reports none for request bodies), the same CSRF
 * header, and the same answer shape.
 */
export async function upload<T>(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<ApiAnswer<T>> {
  const token = await csrf();
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", API + path);
    xhr.setRequestHeader("accept", "application/json");
    if (token) xhr.setRequestHeader("x-csrf-token", token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => resolve(offline());
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: shaped below
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve({ ok: true, status: xhr.status, data: json as T, etag: null });
      } else {
        const problem =
          typeof json === "object" && json !== null && "code" in json
            ? (json as Problem)
            : { ...offline().problem, status: xhr.status, code: `HTTP_${xhr.status}` };
        resolve({ ok: false, status: xhr.status, problem });
      }
    };
    xhr.send(form);
  });
}
