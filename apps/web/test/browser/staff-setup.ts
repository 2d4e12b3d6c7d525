/**
 * The applicant's side of the staff tests, through the API (the staff's is in the browser): a
 * programme with a rubric and a reviewer pool, an applicant with a verified email who uploads a
 * PDF transcript and a PNG CV, pays by transfer (confirmed by the admin) and submits; the admin
 * then assigns the reviewer, which puts the application under review.
 */
import type { AdminApi } from "./admissions.ts";

/** A one-page PDF that says something, so the preview shows a page (offsets computed). */
export function onePagePdf(): Uint8Array<ArrayBuffer> {
  const text = "BT /F1 24 Tf 72 720 Td (Transcript: all grades A) Tj ET";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** A 1×1 PNG (the API checks the signature). */
export const png = (): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(
    Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    ),
  );

export const REVIEWER = { password: "a-long-reviewer-password" };

type Mailbox = { link: (to: string, event: string) => Promise<string> };

/** The applicant's calls through the gateway with their bearer token (JSON, or a form). */
export type ApplicantCall = <T = Record<string, unknown> & { id: string }>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<T>;

export type ReviewReadyOptions = {
  /** The programme's name (the queue's search finds it). */
  programName?: string;
  /** Run with the draft complete and paid, before it is submitted (naming referees, say). */
  beforeSubmit?: (as: ApplicantCall, applicationId: string) => Promise<void>;
  /** Apply to this programme's intake (made by an earlier call) rather than a new programme's. */
  into?: { programId: string; intakeId: string };
};

/** A programme open now with a transcript and a CV required and a rubric on 1–5. */
async function reviewedProgramme(admin: AdminApi, name: string) {
  const program = await admin.openProgram(name);
  // A CV too, so an image is among the documents to preview.
  await admin.call("PATCH", `/catalog/programs/${program.id}/`, {
    requiredDocuments: ["transcript", "cv"],
  });
  await admin.call("PUT", `/staff/programs/${program.id}/rubric/`, {
    scale: { min: 1, max: 5 },
    criteria: [
      { key: "academic_record", label: "Academic record", weight: 3 },
      { key: "statement", label: "Personal statement", weight: 1 },
    ],
  });
  const intakes = await admin.call<{ intakes: { id: string }[] }>(
    "GET",
    `/catalog/programs/${program.id}/`,
  );
  return { programId: program.id, intakeId: intakes.intakes[0]?.id ?? "" };
}

export async function reviewReadyApplication(
  base: string,
  admin: AdminApi,
  mailbox: Mailbox,
  options: ReviewReadyOptions = {},
) {
  const { programId, intakeId } =
    options.into ?? (await reviewedProgramme(admin, options.programName ?? "Staff Testing"));
  const reviewerEmail = `rita-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
  const reviewer = await admin.call("POST", "/staff/users/", {
    email: reviewerEmail,
    fullName: "Rita Reviewer",
    password: REVIEWER.password,
    role: "reviewer",
  });
  await admin.call("PUT", `/staff/programs/${programId}/reviewers/`, {
    reviewerIds: [reviewer.id],
  });

  const email = `alan-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
  const password = "applicant-password-1";
  const registered = await fetch(`${base}/api/v1/auth/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, fullName: "Alan Applicant" }),
  });
  if (registered.status !== 202) throw new Error(`register: ${registered.status}`);
  const login = await fetch(`${base}/api/v1/auth/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const as: ApplicantCall = async <T = Record<string, unknown> & { id: string }>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined || isForm ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  };
  const link = await mailbox.link(email, "email_verification");
  const token = new URL(link).searchParams.get("token");
  await as("POST", "/account/email-verification/confirm/", { token });

  const draft = await as<{ id: string; version: number }>("POST", "/applications/", { intakeId });
  await as(
    "PATCH",
    `/applications/${draft.id}/`,
    { personalStatement: "Machines can think, and I would like to study how." },
    { "if-match": `"${draft.version}"` },
  );
  for (const [type, name, media, bytes] of [
    ["transcript", "transcript.pdf", "application/pdf", onePagePdf()],
    ["cv", "cv.png", "image/png", png()],
  ] as const) {
    const form = new FormData();
    form.append("type", type);
    form.append("file", new Blob([bytes], { type: media }), name);
    await as("POST", `/applications/${draft.id}/documents/`, form);
  }
  const payment = await as(
    "POST",
    `/applications/${draft.id}/payments/`,
    { provider: "manual" },
    {
      "idempotency-key": crypto.randomUUID(),
    },
  );
  await admin.call("POST", `/payments/${payment.id}/confirm/`, { note: "Transfer received" });
  await options.beforeSubmit?.(as, draft.id);
  await as("POST", `/applications/${draft.id}/submit/`);
  await admin.call("POST", `/applications/${draft.id}/assignments/`, { reviewerId: reviewer.id });
  return {
    applicationId: draft.id,
    intakeId,
    reviewerEmail,
    reviewerId: reviewer.id,
    programId,
    applicantEmail: email,
    as,
  };
}
