import { afterAll, describe, expect, test } from "bun:test";
import { pdf } from "./files.ts";
import { type Json, startJourneyStack } from "./journey-stack.ts";

const { admin, reviewer, admissions, gateway, register, emailsFor, program, stop } =
  await startJourneyStack();
afterAll(stop);

describe("journey through the gateway: apply, review, offer, accept, enrol", () => {
  test("every step over HTTP; history, audit log and emails show each one", async () => {
    const { intake } = await program(10, {
      requiredDocuments: ["transcript"],
      applicationFee: { amount: 5000, currency: "EUR" },
    });
    const ada = await register("Ada Applicant");
    const draft = await ada.call("POST", "/api/v1/applications/", { intakeId: intake.id }, 201);
    const id = draft.id;

    const form = new FormData();
    form.append("type", "transcript");
    form.append("file", new Blob([pdf()], { type: "application/pdf" }), "transcript.pdf");
    const doc = await ada.call("POST", `/api/v1/applications/${id}/documents/`, form, 201);
    const payment = await ada.call(
      "POST",
      `/api/v1/applications/${id}/payments/`,
      { provider: "manual" },
      201,
      {
        "idempotency-key": crypto.randomUUID(),
      },
    );
    expect(payment.status).toBe("pending");
    await admin.call("POST", `/api/v1/payments/${payment.id}/confirm/`, {
      note: "Transfer received",
    });
    await admin.call("POST", `/api/v1/applications/${id}/documents/${doc.id}/review/`, {
      decision: "verified",
    });
    const submitted = await ada.call("POST", `/api/v1/applications/${id}/submit/`);
    expect(submitted.status).toBe("submitted");

    const assigned = await admin.call("POST", `/api/v1/applications/${id}/assignments/`, {}, 201);
    expect(assigned.reviewerId).toBe(reviewer.user.id);
    const queue = await reviewer.call<{ results: { application: Json }[] }>(
      "GET",
      "/api/v1/staff/queue/?pending=true",
    );
    expect(queue.results.map((item) => item.application.id)).toContain(id);
    await reviewer.call("PUT", `/api/v1/applications/${id}/reviews/mine/`, {
      scores: { academics: 5, motivation: 3 },
      recommendation: "offer",
      comment: "Excellent record",
    });
    const reviews = await admin.call("GET", `/api/v1/applications/${id}/reviews/`);
    expect(reviews.weightedTotal).toBe(4.5);

    const offered = await admin.call("POST", `/api/v1/applications/${id}/decision/`, {
      decision: "offer",
      reason: "Top of the cohort",
    });
    expect(offered.status).toBe("offered");
    const accepted = await ada.call("POST", `/api/v1/applications/${id}/accept/`);
    expect(accepted.status).toBe("accepted");
    const enrolled = await admin.call("POST", `/api/v1/applications/${id}/transitions/`, {
      to: "enrolled",
    });
    expect(enrolled.status).toBe("enrolled");

    const history = await ada.call<{
      results: { from: string | null; to: string; actor: { role: string } }[];
    }>("GET", `/api/v1/applications/${id}/history/`);
    expect(history.results.map((t) => [t.to, t.actor.role])).toEqual([
      ["draft", "applicant"],
      ["submitted", "applicant"],
      ["under_review", "admin"],
      ["offered", "admin"],
      ["accepted", "applicant"],
      ["enrolled", "admin"],
    ]);

    const audit = await admin.call<{
      results: { action: string; clientIp: string | null; actor: { id: string } }[];
    }>("GET", `/api/v1/staff/audit/?applicationId=${id}&limit=100`);
    expect(audit.results.map((e) => e.action).reverse()).toEqual([
      "payment.confirmed",
      "document.reviewed",
      "application.reviewer_assigned",
      "application.transition",
      "review.saved",
      "application.transition",
      "application.transition",
    ]);
    // The gateway forwards the caller's address; admissions trusts it from loopback.
    expect(audit.results.every((e) => e.clientIp === "127.0.0.1")).toBe(true);

    const emails = await emailsFor(id, ["submitted", "offered", "accepted", "enrolled"]);
    expect(emails.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "offered",
      "accepted",
      "enrolled",
    ]);
    expect(emails.every((m) => m.to[0] === ada.user.email)).toBe(true);
    expect(emails[1]?.subject).toBe("Offer of a place: Journey Studies");
  });
});

describe("journey through the gateway: waitlist promotion after a decline", () => {
  test("the only seat is declined and goes to the first waitlisted applicant", async () => {
    const { intake } = await program(1);
    const [first, second] = [await register("Finn First"), await register("Sam Second")];
    const ids: string[] = [];
    for (const who of [first, second]) {
      const draft = await who.call("POST", "/api/v1/applications/", { intakeId: intake.id }, 201);
      await who.call("POST", `/api/v1/applications/${draft.id}/submit/`);
      await admin.call("POST", `/api/v1/applications/${draft.id}/assignments/`, {}, 201);
      ids.push(draft.id);
    }
    const [a, b] = ids as [string, string];
    await admin.call("POST", `/api/v1/applications/${a}/decision/`, { decision: "offer" });
    const waitlisted = await admin.call("POST", `/api/v1/applications/${b}/decision/`, {
      decision: "waitlist",
    });
    expect(waitlisted.waitlistPosition).toBe(1);
    await admin.call("POST", `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`, {}, 409);

    await first.call("POST", `/api/v1/applications/${a}/decline/`);
    const seats = await admin.call("GET", `/api/v1/staff/intakes/${intake.id}/seats/`);
    expect(seats).toMatchObject({ capacity: 1, held: 0, available: 1, waitlisted: 1 });
    const promoted = await admin.call(
      "POST",
      `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`,
      {},
    );
    expect(promoted).toMatchObject({ id: b, status: "offered", waitlistPosition: null });
    await second.call("POST", `/api/v1/applications/${b}/accept/`);

    const audit = await admin.call<{ results: { details: { to?: string; via?: string } }[] }>(
      "GET",
      `/api/v1/staff/audit/?applicationId=${b}&action=application.transition`,
    );
    expect(audit.results.map((e) => [e.details.to, e.details.via])).toEqual([
      ["offered", "promotion"],
      ["waitlisted", "decision"],
      ["under_review", "assignment"],
    ]);
    const firstEmails = await emailsFor(a, ["submitted", "offered", "declined"]);
    expect(firstEmails.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "offered",
      "declined",
    ]);
    const secondEmails = await emailsFor(b, ["submitted", "waitlisted", "offered", "accepted"]);
    expect(secondEmails.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "waitlisted",
      "offered",
      "accepted",
    ]);
    expect(secondEmails[1]?.text).toContain("position 1");
  });
});

describe("shutdown", () => {
  test("both processes stop cleanly on SIGTERM", async () => {
    for (const proc of [gateway, admissions]) proc.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);
    expect(await admissions.exited).toBe(0);
  });
});
