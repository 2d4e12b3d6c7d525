/**
 * The applicant's signed-in pages for budgets.ts: an applicant registered through the API with
 * a draft on an open programme, signed in through the portal's own form in the browser context
 * the budgets measure in (its session cookie then goes with every page). Each page loads the
 * portal's entry, the shared chunks and its own chunk; budgets.ts measures them as it measures
 * the signed-out ones.
 */

import { adminApi } from "../../apps/web/test/browser/admissions.ts";
import type { launch } from "../../apps/web/test/browser/chromium.ts";

type Backend = { createAdmin: (base: string) => void };
type BrowserContext = Awaited<ReturnType<typeof launch>>["context"];

/** Signs an applicant in and gives the pages to measure, each with what shows it is ready. */
export async function applicantPages(context: BrowserContext, base: string, backend: Backend) {
  backend.createAdmin(base);
  const admin = await adminApi(base);
  const program = await admin.openProgram("Budget Studies");
  const detail = await admin.call<{ intakes: { id: string }[] }>(
    "GET",
    `/catalog/programs/${program.id}/`,
  );
  const email = `budget-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
  const password = "applicant-password-1";
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}/api/v1${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const registered = await post("/auth/register/", { email, password, fullName: "Budget" });
  if (registered.status !== 202) throw new Error(`register: ${registered.status}`);
  const login = await post("/auth/login/", { email, password });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const draft = await post("/applications/", { intakeId: detail.intakes[0]?.id }, accessToken);
  if (draft.status !== 201) throw new Error(`draft: ${draft.status} ${await draft.text()}`);
  const { id } = (await draft.json()) as { id: string };

  const page = await context.newPage();
  await page.goto(`${base}/portal/login`);
  await page.fill('[data-testid="login-email"]', email);
  await page.fill('[data-testid="login-password"]', password);
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL(`${base}/portal/applications/`);
  await page.close();

  const app = `/portal/applications/${id}`;
  const section = '[data-testid="section-back"]';
  return [
    { path: "/portal/applications/", ready: '[data-testid="dashboard-application"]' },
    { path: app, ready: '[data-testid="task-list"]' },
    { path: `${app}/details`, ready: '[data-testid="profile-phone"]' },
    { path: `${app}/qualifications`, ready: '[data-testid="graduation-year"]' },
    { path: `${app}/statement`, ready: '[data-testid="personal-statement"]' },
    { path: `${app}/documents`, ready: '[data-testid="document-upload"]' },
    { path: `${app}/referees`, ready: '[data-testid="referee-name"]' },
    { path: `${app}/fee`, ready: '[data-testid="fee-status"]' },
    { path: `${app}/check`, ready: section },
    { path: "/account/profile", ready: '[data-testid="profile-form"]' },
  ].map((p) => ({ ...p, jsBudgetKB: 150 }));
}
