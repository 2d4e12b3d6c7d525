import type { FieldProblem } from "@platform/contracts/problem";
/** A JSON request for `app.handle`, the in-process way tests drive an app. */
export function jsonRequest(path: string, body: unknown, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new Request(`http://localhost${path}`, {
    method: "POST",
    ...init,
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const get = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, init);

/** The problem+json body of an error response, checked to be one. */
export async function problemOf(response: Response) {
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("application/problem+json")) {
    throw new Error(
      `expected problem+json, got ${response.status} ${type}: ${await response.text()}`,
    );
  }
  return (await response.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    requestId: string;
    errors?: FieldProblem[];
  };
}
