/**
 * Admissions' own metrics beside the request metrics every app has: the email outbox by status
 * (pending is the backlog, dead the emails that ran out of tries) and the webhook deliveries
 * likewise, counted when scraped.
 */
import { Gauge, type Metrics } from "@platform/server";
import type { Db } from "./db/client.ts";
import { outboxCounts } from "./modules/outbox/service.ts";
import { deliveryCounts } from "./modules/webhooks/service.ts";

export function admissionsMetrics(metrics: Metrics, db: Db): void {
  new Gauge({
    name: "admissions_outbox_emails",
    help: "Emails in the outbox by status: pending (the backlog), sent, dead (out of tries).",
    labelNames: ["status"] as const,
    registers: [metrics.registry],
    async collect() {
      const counts = await outboxCounts(db);
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  new Gauge({
    name: "admissions_webhook_deliveries",
    help: "Webhook deliveries by status: pending (the backlog), delivered, dead (out of tries).",
    labelNames: ["status"] as const,
    registers: [metrics.registry],
    async collect() {
      const counts = await deliveryCounts(db);
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
}
