/** Admissions' metrics: requests by templated route, and the email outbox by status. */
import { describe, expect, test } from "bun:test";
import { createMetrics } from "@platform/server";
import { admissionsMetrics } from "../src/metrics.ts";
import { setupApp, signIn } from "./support.ts";
import { call, intakeWithSeats, submittedApplication } from "./workflow-support.ts";

const metrics = createMetrics("admissions");
const ctx = await setupApp({ metrics });
admissionsMetrics(metrics, ctx.db);
const admin = await signIn(ctx, "admin");

const value = (text: string, name: string, ...labels: string[]) =>
  text
    .split("\n")
    .find((line) => line.startsWith(`${name}{`) && labels.every((l) => line.includes(l)))
    ?.split(" ")
    .at(-1);

describe("admissions metrics", () => {
  test("a submission's email shows in the outbox backlog; nothing is dead", async () => {
    const before = Number(
      value(await metrics.registry.metrics(), "admissions_outbox_emails", 'status="pending"'),
    );
    const { intake } = await intakeWithSeats(ctx, admin);
    await submittedApplication(ctx, intake.id);
    const text = await metrics.registry.metrics();
    expect(Number(value(text, "admissions_outbox_emails", 'status="pending"'))).toBeGreaterThan(
      before,
    );
    expect(value(text, "admissions_outbox_emails", 'status="dead"')).toBe("0");
  });

  test("requests are counted by their route's pattern, not by ids", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await submittedApplication(ctx, intake.id);
    expect((await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/`)).status).toBe(
      200,
    );
    await Bun.sleep(10);
    const text = await metrics.registry.metrics();
    expect(text).not.toContain(`${application.id}`);
    expect(value(text, "http_requests_total", 'route="/api/v1/applications/:id/"')).toBeDefined();
  });
});
