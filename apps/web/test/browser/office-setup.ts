/**
 * What the office's browser tests share. Through the API: a verified applicant with a draft
 * for an intake, who pays by bank transfer (the payment stays pending for the office's desk); a
 * programme ready for applications; a staff account. In the page: the staff sign-in, and
 * retyping a field, by keyboard.
 */
import { ADMIN, type AdminApi } from "./admissions.ts";
import type { Page } from "./chromium.ts";
import { byTestId, tabTo, typeSignIn } from "./keyboard.ts";

type Mailbox = { link: (to: string, event: string) => Promise<string> };
type Json = Record<string, unknown> & { id: string };

/** A registered, verified applicant signed in with a bearer token. */
export async function applicant(base: string, mailbox: Mailbox, fullName: string) {
  const email = `${fullName.split(" ")[0]?.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
  const password = "applicant-password-1";
  const post = (path: string, body: unknown) =>
    fetch(`${base}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  if ((await post("/auth/register/", { email, password, fullName })).status !== 202) {
    throw new Error(`register ${email}`);
  }
  const { accessToken } = (await (await post("/auth/login/", { email, password })).json()) as {
    accessToken: string;
  };
  const as = async <T = Json>(method: string, path: string, body?: unknown, headers = {}) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  };
  const token = new URL(await mailbox.link(email, "email_verification")).searchParams.get("token");
  await as("POST", "/account/email-verification/confirm/", { token });
  return { email, password, fullName, as };
}

/** An applicant's draft for the intake, paid by a bank transfer the office has not confirmed. */
export async function pendingTransfer(
  base: string,
  mailbox: Mailbox,
  intakeId: string,
  fullName: string,
) {
  const person = await applicant(base, mailbox, fullName);
  const draft = await person.as("POST", "/applications/", { intakeId });
  const payment = await person.as<Json & { reference: string }>(
    "POST",
    `/applications/${draft.id}/payments/`,
    { provider: "manual" },
    { "idempotency-key": crypto.randomUUID() },
  );
  return {
    ...person,
    applicationId: draft.id,
    paymentId: payment.id,
    reference: payment.reference,
  };
}

/** A programme with a fee, no required documents, a one-criterion rubric and `reviewerIds`. */
export async function officeProgramme(admin: AdminApi, name: string, reviewerIds: string[] = []) {
  const program = await admin.openProgram(name);
  await admin.call("PATCH", `/catalog/programs/${program.id}/`, { requiredDocuments: [] });
  await admin.call("PUT", `/staff/programs/${program.id}/rubric/`, {
    scale: { min: 1, max: 5 },
    criteria: [{ key: "overall", label: "Overall", weight: 1 }],
  });
  if (reviewerIds.length) {
    await admin.call("PUT", `/staff/programs/${program.id}/reviewers/`, { reviewerIds });
  }
  const detail = await admin.call<{ intakes: { id: string }[] }>(
    "GET",
    `/catalog/programs/${program.id}/`,
  );
  return {
    programId: program.id,
    code: String(program.code),
    intakeId: detail.intakes[0]?.id ?? "",
  };
}

/** A staff account made by the admin. */
export const staffMember = (
  admin: AdminApi,
  fullName: string,
  role: "reviewer" | "admin" = "reviewer",
) =>
  admin.call<Json & { email: string }>("POST", "/staff/users/", {
    email: `${fullName.split(" ")[0]?.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@portal-test.example`,
    fullName,
    password: "a-long-reviewer-password",
    role,
  });

/**
 * Signs in on the staff sign-in page by keyboard (the admin unless told) and waits for the
 * queue's count (a new database's queue is empty: `queue-empty` under the table).
 */
export async function staffSignIn(
  page: Page,
  base: string,
  email = ADMIN.email,
  password = ADMIN.password,
) {
  await page.goto(`${base}/portal/staff/login`);
  await page.waitForSelector(byTestId("login-email"));
  await typeSignIn(page, email, password);
  await page.waitForSelector(byTestId("queue-count"));
}

/** Tabs to a field and types into it, what was there replaced. */
export async function retype(page: Page, selector: string, text: string) {
  await tabTo(page, selector);
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
}
