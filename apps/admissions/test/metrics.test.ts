/** Admissions' metrics: requests by templated route, and the email outbox by status. */
import { describe, expect, test } from "bun:test";
import { createMetrics } from "@platform/server";
import { metricValue } from "@platform/server/testing";
import { admissionsMetrics } from "../src/metrics.ts";
import { setupApp, signIn } from "./support.ts";
import { call, intakeWithSeats, submittedApplication } from "./workflow-support.ts";

const metrics = createMetrics("admissions");
const ctx = await setupApp({ metrics });
admissionsMetrics(metrics, ctx.db);
const admin = await signIn(ctx, "admin");

describe("admissions metrics", () => {
  test("a submission's email shows in the outbox backlog; nothing is dead", async () => {
    const before = Number(
      metricValue(await metrics.registry.metrics(), "admissions_outbox_emails", 'status="pending"'),
    );
    const { intake } = await intakeWithSeats(ctx, admin);
    await submittedApplication(ctx, intake.id);
    const text = await metrics.registry.metrics();
    expect(
      Number(metricValue(text, "admissions_outbox_emails", 'status="pending"')),
    ).toBeGreaterThan(before);
    expect(metricValue(text, "admissions_outbox_emails", 'status="dead"')).toBe("0");
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
    expect(
      metricValue(text, "http_requests_total", 'route="/api/v1/applications/:id/"'),
    ).toBeDefined();
  });
});
