import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import type { Profile, ProfileChange } from "../src/modules/profile/model.ts";
import type { PersonalDetails } from "../src/modules/users/model.ts";
import { emailsTo } from "./mfa-support.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  json,
  type Paged,
  type Session,
  setupApp,
  signIn,
} from "./support.ts";

const ctx = await setupApp();
const { app } = ctx;
const YEAR = 365.25 * 86_400_000;
/** The profile's own emails (registration also sends a verification email to the address). */
const profileEmailsTo = async (to: string) =>
  (await emailsTo(ctx, to)).filter((email) => email.event.startsWith("profile."));
/** A date of birth `years` (and a few days) ago, as YYYY-MM-DD. */
const bornYearsAgo = (years: number) =>
  new Date(ctx.clock.now() - years * YEAR - 5 * 86_400_000).toISOString().slice(0, 10);

const ada: PersonalDetails = {
  legalName: "Augusta Ada King",
  preferredName: "Ada",
  dateOfBirth: bornYearsAgo(19),
  nationality: "GB",
  address: {
    lines: ["12 St James's Square", "Flat 2"],
    city: "London",
    region: null,
    postcode: "SW1Y 4JH",
    country: "GB",
  },
  phone: "+442071234567",
};

const put = (who: Session, body: unknown) => app.handle(as(who, "PUT", "/api/v1/profile/", body));
const patch = (who: Session, body: unknown) =>
  app.handle(as(who, "PATCH", "/api/v1/profile/", body));
const read = async (who: Session) =>
  (await (await app.handle(as(who, "GET", "/api/v1/profile/"))).json()) as Profile;
const history = async (who: Session) =>
  (await (
    await app.handle(as(who, "GET", "/api/v1/profile/history/"))
  ).json()) as Paged<ProfileChange>;

describe("the profile", () => {
  test("empty until filled: every field null, version 0", async () => {
    const applicant = await signIn(ctx);
    expect(await read(applicant)).toEqual({
      legalName: null,
      preferredName: null,
      dateOfBirth: null,
      nationality: null,
      address: null,
      phone: null,
      version: 0,
      updatedAt: null,
    });
    expect((await history(applicant)).count).toBe(0);
  });

  test("PUT stores it (trimmed) and GET reads it back", async () => {
    const applicant = await signIn(ctx);
    const res = await put(applicant, { ...ada, legalName: "  Augusta Ada King  " });
    expect(res.status).toBe(200);
    const saved = (await res.json()) as Profile;
    expect(saved).toEqual({
      ...ada,
      version: 1,
      updatedAt: new Date(ctx.clock.now()).toISOString(),
    });
    expect(await read(applicant)).toEqual(saved);
  });

  test("PATCH changes only what is sent; the history says who, when, and each old value", async () => {
    const applicant = await signIn(ctx);
    await put(applicant, ada);
    ctx.clock.advance(60_000);
    const res = await patch(applicant, { phone: "+14155552671", preferredName: null });
    expect(res.status).toBe(200);
    const after = (await res.json()) as Profile;
    expect(after).toMatchObject({ ...ada, phone: "+14155552671", preferredName: null, version: 2 });
    const { count, results } = await history(applicant);
    expect(count).toBe(2);
    const [latest, first] = results;
    expect(latest).toMatchObject({
      changedBy: { id: applicant.user.id, role: "applicant" },
      at: new Date(ctx.clock.now()).toISOString(),
      changes: {
        phone: { from: "+442071234567", to: "+14155552671" },
        preferredName: { from: "Ada", to: null },
      },
    });
    expect(latest?.fields.sort()).toEqual(["phone", "preferredName"]);
    expect(first?.fields.sort()).toEqual(Object.keys(ada).sort());
    expect(first?.changes.legalName).toEqual({ from: null, to: "Augusta Ada King" });
  });

  test("a change that changes nothing writes no history, no version, no email", async () => {
    const applicant = await signIn(ctx);
    await put(applicant, ada);
    const res = await patch(applicant, { nationality: "GB" });
    expect(((await res.json()) as Profile).version).toBe(1);
    expect((await history(applicant)).count).toBe(1);
    expect((await profileEmailsTo(applicant.user.email)).length).toBe(1);
  });

  test("each change is emailed: which fields (not their values), a link to the profile page", async () => {
    const applicant = await signIn(ctx);
    await put(applicant, ada);
    await patch(applicant, { address: { ...ada.address, city: "Cambridge" } });
    const emails = await profileEmailsTo(applicant.user.email);
    expect(emails.map((e) => e.event)).toEqual(["profile.updated", "profile.updated"]);
    const last = emails[1];
    expect(last?.body).toContain("were changed: address.");
    expect(last?.body).not.toContain("Cambridge");
    expect(last?.body).toContain(`${DEFAULT_SETTINGS.portalUrl}/account/profile`);
  });

  test("history pages, newest first", async () => {
    const applicant = await signIn(ctx);
    for (const phone of ["+4420700000001", "+4420700000002", "+4420700000003"]) {
      await patch(applicant, { phone });
      ctx.clock.advance(1_000);
    }
    const res = await app.handle(as(applicant, "GET", "/api/v1/profile/history/?limit=2"));
    const page = (await res.json()) as Paged<ProfileChange>;
    expect(page.count).toBe(3);
    expect(page.results.map((c) => c.changes.phone?.to)).toEqual([
      "+4420700000003",
      "+4420700000002",
    ]);
    expect(page.next).toBe("/api/v1/profile/history/?limit=2&offset=2");
  });
});

describe("validation: clear errors, every one listed", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["a blank legal name", { legalName: "   " }, "/body/legalName", /blank/],
    ["a control character", { legalName: "Ada\u0007" }, "/body/legalName", /control/],
    ["an unassigned country", { nationality: "XX" }, "/body/nationality", /ISO 3166-1/],
    ["a lower-case country", { nationality: "gb" }, "/body/nationality", /./],
    ["a date that does not exist", { dateOfBirth: "2007-02-30" }, "/body/dateOfBirth", /./],
    ["a birth date in the future", { dateOfBirth: "2999-01-01" }, "/body/dateOfBirth", /past/],
    ["a child of 5", { dateOfBirth: bornYearsAgo(5) }, "/body/dateOfBirth", /age of 5/],
    ["an age of 130", { dateOfBirth: bornYearsAgo(130) }, "/body/dateOfBirth", /age of 130/],
    ["not a date", { dateOfBirth: "10/12/2007" }, "/body/dateOfBirth", /./],
    ["a phone without +", { phone: "02071234567" }, "/body/phone", /./],
    ["a phone with spaces", { phone: "+44 20 7123 4567" }, "/body/phone", /./],
    ["a too-short phone", { phone: "+4412" }, "/body/phone", /./],
    [
      "an address without lines",
      { address: { ...ada.address, lines: [] } },
      "/body/address/lines",
      /./,
    ],
    [
      "an address in an unassigned country",
      { address: { ...ada.address, country: "QQ" } },
      "/body/address/country",
      /ISO 3166-1/,
    ],
    [
      "five address lines",
      { address: { ...ada.address, lines: ["a", "b", "c", "d", "e"] } },
      "/body/address/lines",
      /./,
    ],
  ];

  test.each(cases)("%s → 422 naming the field", async (_, body, path, message) => {
    const applicant = await signIn(ctx);
    const res = await patch(applicant, body);
    expect(res.status).toBe(422);
    const problem = await problemOf(res);
    expect(problem.code).toBe("VALIDATION_FAILED");
    const issue = problem.errors?.find((e) => e.path.startsWith(path));
    expect(issue?.message).toMatch(message);
    expect((await read(applicant)).version).toBe(0);
  });

  test("several problems at once are all listed: the schema's, then the rules it cannot say", async () => {
    const applicant = await signIn(ctx);
    const pathsOf = async (body: Record<string, unknown>) =>
      ((await problemOf(await patch(applicant, body))).errors ?? []).map((e) => e.path).sort();
    // Text and formats are the request schema's (lib/text.ts): all of them at once.
    expect(await pathsOf({ legalName: " ", preferredName: "A\nB", phone: "0207" })).toEqual([
      "/body/legalName",
      "/body/phone",
      "/body/preferredName",
    ]);
    // Assigned countries and a plausible birth date are the profile's own: all at once too.
    expect(await pathsOf({ nationality: "ZZ", dateOfBirth: "2999-01-01" })).toEqual([
      "/body/dateOfBirth",
      "/body/nationality",
    ]);
  });

  test("the age limits are inclusive: 13 and 120 are accepted", async () => {
    const applicant = await signIn(ctx);
    expect((await patch(applicant, { dateOfBirth: bornYearsAgo(13) })).status).toBe(200);
    expect((await patch(applicant, { dateOfBirth: bornYearsAgo(120) })).status).toBe(200);
  });

  test("Kosovo (XK) is accepted; an empty PATCH is a 422; PUT needs every field", async () => {
    const applicant = await signIn(ctx);
    expect((await patch(applicant, { nationality: "XK" })).status).toBe(200);
    expect((await patch(applicant, {})).status).toBe(422);
    const { phone: _, ...partial } = ada;
    expect((await put(applicant, partial)).status).toBe(422);
  });
});

describe("who may use it", () => {
  test("staff have no profile here (403); anonymous callers 401", async () => {
    const reviewer = await signIn(ctx, "reviewer");
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", ada],
      ["PATCH", { phone: "+442071234567" }],
    ] as const) {
      expect((await app.handle(as(reviewer, method, "/api/v1/profile/", body))).status).toBe(403);
      expect((await app.handle(json(method, "/api/v1/profile/", body))).status).toBe(401);
    }
    expect((await app.handle(as(reviewer, "GET", "/api/v1/profile/history/"))).status).toBe(403);
  });

  test("each applicant reads and changes only their own", async () => {
    const victim = await signIn(ctx);
    const attacker = await signIn(ctx);
    await put(victim, ada);
    expect((await read(attacker)).legalName).toBeNull();
    await patch(attacker, { legalName: "Mallory" });
    expect((await read(victim)).legalName).toBe(ada.legalName);
    const theirs = await history(attacker);
    expect(JSON.stringify(theirs)).not.toContain(ada.phone ?? "");
  });

  test("cookie sessions need the CSRF token to change it", async () => {
    const applicant = await signIn(ctx);
    const res = await app.handle(
      json("PATCH", "/api/v1/profile/", { phone: "+442071234567" }, { cookie: applicant.cookie }),
    );
    expect((await problemOf(res)).code).toBe("CSRF_TOKEN_MISSING");
    const ok = await app.handle(
      json(
        "PATCH",
        "/api/v1/profile/",
        { phone: "+442071234567" },
        { cookie: applicant.cookie, csrf: applicant.csrfToken },
      ),
    );
    expect(ok.status).toBe(200);
  });
});

describe("applications are prefilled from it", () => {
  const setup = async () => {
    const admin = await signIn(ctx, "admin");
    const program = await createProgram(ctx, admin);
    return { admin, intake: await createIntake(ctx, admin, program.id) };
  };

  test("a new application carries the profile; staff see it too", async () => {
    const { admin, intake } = await setup();
    const applicant = await signIn(ctx);
    await put(applicant, ada);
    const draft = await createDraft(ctx, applicant, intake.id);
    expect(draft.applicantProfile).toEqual(ada);
    const asStaff = await app.handle(as(admin, "GET", `/api/v1/applications/${draft.id}/`));
    expect(((await asStaff.json()) as typeof draft).applicantProfile).toEqual(ada);
  });

  test("without a profile it is null; the other fields are as before", async () => {
    const { intake } = await setup();
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, intake.id, { personalStatement: "Hello" });
    expect(draft.applicantProfile).toBeNull();
    expect(draft).toMatchObject({ status: "draft", version: 1, personalStatement: "Hello" });
  });

  test("submission takes the profile as it is then; later changes leave the application alone", async () => {
    const { intake } = await setup();
    const applicant = await signIn(ctx);
    await put(applicant, ada);
    const draft = await createDraft(ctx, applicant, intake.id);
    await patch(applicant, { phone: "+14155552671" });
    const submitted = await app.handle(
      as(applicant, "POST", `/api/v1/applications/${draft.id}/submit/`),
    );
    expect(submitted.status).toBe(200);
    expect(((await submitted.json()) as typeof draft).applicantProfile?.phone).toBe("+14155552671");
    await patch(applicant, { phone: "+33142685300" });
    const after = await app.handle(as(applicant, "GET", `/api/v1/applications/${draft.id}/`));
    expect(((await after.json()) as typeof draft).applicantProfile?.phone).toBe("+14155552671");
  });
});
