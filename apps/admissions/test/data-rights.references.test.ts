import { describe, expect, test } from "bun:test";
import { exportOf, feeIntake } from "./data-rights-support.ts";
import { addReferee, applicantWithDraft } from "./references-support.ts";
import { setupApp, signIn } from "./support.ts";

// The export holds what was sent TO the applicant, never the referee's request: until it is
// delivered that email carries the referee's single-use link, with which the applicant could
// write their own reference.
const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const intake = await feeIntake(ctx, admin);

describe("export and references", () => {
  test("the referees are listed with their status; the referee's email and its link are not there", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const added = await addReferee(ctx, applicant, draft.id, { email: "rita@referee.example" });
    expect(added.status).toBe(201);
    // Still queued: the body holds the live link.
    const [queued] = (await ctx.db.run(
      (sql) => sql`SELECT body, status FROM email_outbox WHERE to_address = 'rita@referee.example'`,
    )) as { body: string; status: string }[];
    const token = /[?&]token=([\w-]+)/.exec(queued?.body ?? "")?.[1] ?? "";
    expect(token.length).toBeGreaterThan(20);

    const { entries, data } = await exportOf(ctx, applicant);
    const text = new TextDecoder().decode(entries["data.json"]);
    expect(text).not.toContain(token);
    const emails = data.emails as { to: string; event: string }[];
    expect(emails.every((e) => e.to === applicant.user.email)).toBe(true);
    expect(emails.map((e) => e.event)).not.toContain("reference_requested");
    expect(data.referees).toEqual([
      {
        applicationId: draft.id,
        name: "Charles Babbage",
        email: "rita@referee.example",
        relationship: "Project supervisor",
        status: "requested",
        receivedAt: null,
      },
    ]);
    expect(data.interviews).toEqual([]);
    expect(data.signedDocuments).toEqual([]);
  });
});
