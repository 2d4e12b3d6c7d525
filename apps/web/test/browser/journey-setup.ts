/**
 * An applicant whose application is sent, set up through the API (the browser test then takes
 * over): registered, the email verified from its link, a draft with the transcript uploaded,
 * the fee paid by transfer (the admin confirms) and submitted. A second, later intake of the
 * programme exists, so a place can be deferred to it.
 */
import type { AdminApi } from "./admissions.ts";
import { onePagePdf } from "./staff-setup.ts";

type Mailbox = { link: (to: string, event: string) => Promise<string> };

export async function sentApplication(
  base: string,
  admin: AdminApi,
  mailbox: Mailbox,
  name: string,
) {
  const program = await admin.openProgram(name);
  const later = await admin.call("POST", `/catalog/programs/${program.id}/intakes/`, {
    term: "Autumn 2032",
    opensAt: new Date(Date.now() + 200 * 86_400_000).toISOString(),
    deadline: new Date(Date.now() + 400 * 86_400_000).toISOString(),
    capacity: 10,
  });
  const email = `grace-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
  const password = "applicant-password-1";
  const json = { "content-type": "application/json" };
  const registered = await fetch(`${base}/api/v1/auth/register/`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password, fullName: "Grace Applicant" }),
  });
  if (registered.status !== 202) throw new Error(`register: ${registered.status}`);
  const login = await fetch(`${base}/api/v1/auth/login/`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const as = async <T = { id: string; version: number }>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    const form = body instanceof FormData;
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined || form ? {} : json),
        ...headers,
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  };
  const token = new URL(await mailbox.link(email, "email_verification")).searchParams.get("token");
  await as("POST", "/account/email-verification/confirm/", { token });
  const detail = await admin.call<{ intakes: { id: string; term: string }[] }>(
    "GET",
    `/catalog/programs/${program.id}/`,
  );
  const intakeId = detail.intakes.find((i) => i.term === "Autumn 2031")?.id ?? "";
  const draft = await as("POST", "/applications/", { intakeId });
  await as(
    "PATCH",
    `/applications/${draft.id}/`,
    { personalStatement: "Computers fascinate me, and I would like to build better ones." },
    { "if-match": `"${draft.version}"` },
  );
  const upload = new FormData();
  upload.append("type", "transcript");
  upload.append("file", new Blob([onePagePdf()], { type: "application/pdf" }), "transcript.pdf");
  await as("POST", `/applications/${draft.id}/documents/`, upload);
  const payment = await as(
    "POST",
    `/applications/${draft.id}/payments/`,
    { provider: "manual" },
    { "idempotency-key": crypto.randomUUID() },
  );
  await admin.call("POST", `/payments/${payment.id}/confirm/`, { note: "Transfer received" });
  await as("POST", `/applications/${draft.id}/submit/`);
  return { email, password, applicationId: draft.id, laterIntakeId: later.id };
}
