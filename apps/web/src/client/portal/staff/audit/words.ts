import type { MessageKey } from "../../i18n/index.ts";
import { formatMoney, t } from "../../i18n/use.ts";
import type { AuditEntry } from "../office/types.ts";

/** Every action the API records, each said in words (test/portal-office.test.ts holds it to the API's list). */
export const AUDIT_ACTIONS = [
  "application.transition",
  "application.reviewer_assigned",
  "application.reviewer_unassigned",
  "review.saved",
  "review.conflict_declared",
  "rubric.saved",
  "program.created",
  "program.updated",
  "program.deactivated",
  "program.reviewers_set",
  "intake.created",
  "intake.updated",
  "staff.created",
  "staff.updated",
  "staff.password_reset",
  "applications.exported",
  "document.reviewed",
  "payment.confirmed",
  "payment.failed",
  "payment.refunded",
  "fee.waived",
  "mfa.enabled",
  "mfa.disabled",
  "mfa.recovery_codes_regenerated",
  "data.exported",
  "data.erasure_requested",
  "data.erasure_cancelled",
  "data.erasure_rejected",
  "data.erasure_completed",
  "condition.updated",
  "application.conditions_met",
  "deferral.requested",
  "deferral.approved",
  "deferral.refused",
  "reason.created",
  "reason.updated",
  "intake.decisions_due_set",
  "program.review_settings_set",
  "review.extra_requested",
  "review.extra_flagged",
  "interview.created",
  "interview.invited",
  "interview.rescheduled",
  "interview.cancelled",
  "interview.scored",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.redelivered",
] as const satisfies readonly AuditEntry["action"][];

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
const status = (value: unknown) =>
  typeof value === "string" ? t(`status.${value}` as MessageKey) : t("office.audit.unknown");

/** What the entry is about: "Ada Lovelace's application (CS-BSC, Autumn 2026)", or its subject. */
export function targetOf(entry: AuditEntry): string {
  if (entry.application) {
    return t("office.audit.application", {
      name: entry.application.applicantName,
      programme: entry.application.program.code,
      term: entry.application.term,
    });
  }
  return entry.subject?.name ?? t("office.audit.platform");
}

/** What happened: "Submitted → Under review", "Reviewer Rita Reviewer assigned", … */
export function whatOf(entry: AuditEntry): string {
  const d = entry.details;
  if (entry.action === "application.transition") {
    return t("office.audit.move", { from: status(d.from), to: status(d.to) });
  }
  const amount =
    typeof d.amount === "number" && typeof d.currency === "string"
      ? formatMoney({ amount: d.amount, currency: d.currency })
      : "";
  return t(`office.audit.action.${entry.action}` as MessageKey, {
    subject: entry.subject?.name ?? "",
    amount,
    total: typeof d.weightedTotal === "number" ? d.weightedTotal : "",
  });
}

/** Who did it: a staff member by name (their email if the name is gone), or the platform. */
export const actorOf = (entry: AuditEntry) =>
  entry.actor.role === "system"
    ? t("office.audit.system")
    : (entry.actor.fullName ?? entry.actor.email ?? t("office.audit.unknown"));

/** Why, when the entry says: the move's reason, a note, a declared conflict's reason. */
export const whyOf = (entry: AuditEntry) =>
  text(entry.details.reason) ?? text(entry.details.note) ?? null;
