import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { calibrate, normaliser, spreadOf } from "../src/modules/review/internal/stats.ts";
import type { Calibration, ExtraReviews, Ranking } from "../src/modules/review/model.ts";
import { assignedApplication, poolProgram, scored } from "./review-support.ts";
import { createIntake, json, type Session, setupApp, signIn } from "./support.ts";
import { call, expectJson, intakeWithSeats } from "./workflow-support.ts";

describe("the arithmetic", () => {
  test("spread: count, mean and population standard deviation", () => {
    expect(spreadOf([])).toEqual({ count: 0, mean: null, sd: null });
    expect(spreadOf([3])).toEqual({ count: 1, mean: 3, sd: 0 });
    const s = spreadOf([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.mean).toBe(5);
    expect(s.sd).toBe(2);
  });

  test("calibration compares a reviewer with the others on the same applications only", () => {
    const scoredReviews = [
      { reviewerId: "a", applicationId: "1", total: 5 },
      { reviewerId: "b", applicationId: "1", total: 3 },
      { reviewerId: "a", applicationId: "2", total: 4 },
      { reviewerId: "c", applicationId: "3", total: 1 }, // nobody else read 3
    ];
    const byId = new Map(calibrate(scoredReviews).map((c) => [c.reviewerId, c]));
    expect(byId.get("a")?.panel).toEqual({ count: 1, mean: 3, sd: 0 });
    expect(byId.get("a")?.difference).toBe(1.5);
    expect(byId.get("b")?.difference).toBe(-2);
    expect(byId.get("c")?.difference).toBeNull();
    expect(byId.get("a")?.normalisable).toBe(true);
    expect(byId.get("b")?.normalisable).toBe(false);
  });

  test("normalisation maps z-scores onto the panel, within the scale; few reviews stay raw", () => {
    const scoredReviews = [
      { reviewerId: "a", applicationId: "1", total: 5 },
      { reviewerId: "a", applicationId: "2", total: 3 },
      { reviewerId: "b", applicationId: "1", total: 1 },
      { reviewerId: "b", applicationId: "2", total: 1 },
      { reviewerId: "c", applicationId: "1", total: 2 },
    ];
    const panel = spreadOf(scoredReviews.map((s) => s.total)); // mean 2.4
    const f = normaliser(scoredReviews, { min: 1, max: 5 });
    const [a5, a3, b1, , c2] = scoredReviews as [
      (typeof scoredReviews)[0],
      (typeof scoredReviews)[0],
      (typeof scoredReviews)[0],
      unknown,
      (typeof scoredReviews)[0],
    ];
    // a: mean 4, sd 1 → z = ±1 → 2.4 ± panel sd.
    expect(f(a5)).toBeCloseTo((panel.mean ?? 0) + (panel.sd ?? 0), 10);
    // 2.4 − 1.50 would fall below the scale: kept at its minimum.
    expect(panel.sd).toBeCloseTo(Math.sqrt(2.24), 10);
    expect(f(a3)).toBe(1);
    // b gives everyone 1 (sd 0): z = 0, the panel's mean.
    expect(f(b1)).toBeCloseTo(2.4, 10);
    // c has one review: kept raw.
    expect(f(c2)).toBe(2);
  });
});

// The default configuration: no automatic extra review (threshold 0).
const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const [generous, harsh, later] = (await Promise.all([
  signIn(ctx, "reviewer"),
  signIn(ctx, "reviewer"),
  signIn(ctx, "reviewer"),
])) as [Session, Session, Session];
const { program, intake } = await poolProgram(ctx, admin, [generous, harsh, later]);

/*
 * generous: A1 5, A2 4, A3 3, X 4   (mean 4, sd √0.5 ≈ 0.71)
 * harsh:    A1 3, A2 2, A3 1, Y 3   (mean 2.25, sd ≈ 0.83)
 * panel:    all eight totals        (mean 3.125, sd ≈ 1.17)
 */
const both = [generous, harsh];
const a1 = await assignedApplication(ctx, admin, intake.id, both);
const a2 = await assignedApplication(ctx, admin, intake.id, both);
const a3 = await assignedApplication(ctx, admin, intake.id, both);
const x = await assignedApplication(ctx, admin, intake.id, [generous]);
const y = await assignedApplication(ctx, admin, intake.id, [harsh]);
for (const [app, g, h] of [
  [a1, 5, 3],
  [a2, 4, 2],
  [a3, 3, 1],
] as const) {
  await scored(ctx, generous, app.id, g);
  await scored(ctx, harsh, app.id, h);
}
await scored(ctx, generous, x.id, 4);
await scored(ctx, harsh, y.id, 3);
// `later` reviews A1, then declares a conflict: their review no longer counts anywhere.
await expectJson(
  await call(ctx, admin, "POST", `/api/v1/applications/${a1.id}/assignments/`, {
    reviewerId: later.user.id,
  }),
  201,
);
await scored(ctx, later, a1.id, 1);
await expectJson(
  await call(ctx, later, "POST", `/api/v1/applications/${a1.id}/conflict-of-interest/`, {
    reason: "Recognised the applicant",
  }),
);

const get = async <T>(path: string) => expectJson<T>(await call(ctx, admin, "GET", path));
const base = "/api/v1/staff/calibration/";

describe("calibration per reviewer", () => {
  test("each reviewer's mean and spread, the panel's on the same applications, the gap", async () => {
    const body = await get<Calibration>(`${base}?programId=${program.id}`);
    expect(body.panel).toEqual({ count: 8, mean: 3.13, sd: 1.17 });
    expect(body.scale).toEqual({ min: 1, max: 5 });
    const byId = new Map(body.reviewers.map((r) => [r.reviewer.id, r]));
    expect(byId.has(later.user.id)).toBe(false);
    expect(byId.get(generous.user.id)).toMatchObject({
      count: 4,
      mean: 4,
      sd: 0.71,
      panel: { count: 3, mean: 2, sd: 0.82 },
      difference: 2,
      normalisable: true,
    });
    expect(byId.get(harsh.user.id)).toMatchObject({
      count: 4,
      mean: 2.25,
      sd: 0.83,
      panel: { count: 3, mean: 4, sd: 0.82 },
      difference: -1.75,
    });
    expect(byId.get(generous.user.id)?.reviewer.email).toBe(generous.user.email);
  });

  test("per intake: another intake of the program has no reviews yet", async () => {
    const other = await createIntake(ctx, admin, program.id);
    const body = await get<Calibration>(`${base}?programId=${program.id}&intakeId=${other.id}`);
    expect(body.reviewers).toEqual([]);
    expect(body.panel).toEqual({ count: 0, mean: null, sd: null });
    const same = await get<Calibration>(`${base}?programId=${program.id}&intakeId=${intake.id}`);
    expect(same.panel.count).toBe(8);
  });

  test("no automatic extra review with the default configuration", async () => {
    const body = await get<ExtraReviews>(`${base}extra-reviews/?programId=${program.id}`);
    expect(body.items).toEqual([]);
  });
});

describe("the ranking", () => {
  test("raw: the mean of each application's totals", async () => {
    const body = await get<Ranking>(`${base}ranking/?programId=${program.id}`);
    expect(body.normalised).toBe(false);
    const scores = Object.fromEntries(body.items.map((i) => [i.applicationId, i.score]));
    expect(scores).toEqual({ [a1.id]: 4, [x.id]: 4, [a2.id]: 3, [y.id]: 3, [a3.id]: 2 });
    expect(body.items.every((i) => i.score === i.rawScore)).toBe(true);
    expect(body.items.map((i) => i.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(body.items.find((i) => i.applicationId === a1.id)?.reviews).toBe(2);
  });

  test("normalised: the harsh reviewer's 3 outranks the generous reviewer's 4", async () => {
    const body = await get<Ranking>(`${base}ranking/?programId=${program.id}&normalised=true`);
    expect(body.normalised).toBe(true);
    expect(body.items.map((i) => [i.applicationId, i.score, i.rawScore])).toEqual([
      [a1.id, 4.48, 4],
      [y.id, 4.18, 3],
      [x.id, 3.13, 4],
      [a2.id, 2.95, 3],
      [a3.id, 1.42, 2],
    ]);
  });

  test("raw scores are never overwritten: the raw ranking reads the same afterwards", async () => {
    const body = await get<Ranking>(`${base}ranking/?programId=${program.id}&normalised=false`);
    expect(body.items.find((i) => i.applicationId === y.id)?.score).toBe(3);
    const reviews = await get<{ reviews: { weightedTotal: number; reviewer: { id: string } }[] }>(
      `/api/v1/applications/${y.id}/reviews/`,
    );
    expect(reviews.reviews.map((r) => r.weightedTotal)).toEqual([3]);
  });
});

describe("calibration errors and access", () => {
  test("reviewers and applicants are refused", async () => {
    const applicant = await signIn(ctx);
    for (const who of [generous, applicant]) {
      for (const path of [
        `${base}?programId=${program.id}`,
        `${base}ranking/?programId=${program.id}`,
      ]) {
        expect((await problemOf(await call(ctx, who, "GET", path))).code).toBe("FORBIDDEN");
      }
    }
  });

  test("unknown program or intake, another program's intake: 404; no rubric: 409", async () => {
    const other = await intakeWithSeats(ctx, admin);
    for (const path of [
      `${base}?programId=${crypto.randomUUID()}`,
      `${base}?programId=${program.id}&intakeId=${crypto.randomUUID()}`,
      `${base}?programId=${program.id}&intakeId=${other.intake.id}`,
      `${base}ranking/?programId=${program.id}&intakeId=${other.intake.id}`,
    ]) {
      expect((await problemOf(await call(ctx, admin, "GET", path))).code).toBe("NOT_FOUND");
    }
    const res = await call(ctx, admin, "GET", `${base}?programId=${other.program.id}`);
    expect((await problemOf(res)).code).toBe("RUBRIC_MISSING");
  });

  test("a missing programId or a bad flag is 422", async () => {
    for (const path of [
      base,
      `${base}ranking/`,
      `${base}ranking/?programId=${program.id}&normalised=perhaps`,
    ]) {
      expect((await call(ctx, admin, "GET", path)).status).toBe(422);
    }
  });
});

describe("the new admin routes without credentials, or a cookie without its CSRF token", () => {
  const routes = (): [string, string][] => [
    ["GET", `${base}?programId=${program.id}`],
    ["GET", `${base}ranking/?programId=${program.id}`],
    ["GET", `${base}extra-reviews/`],
    ["GET", `/api/v1/staff/programs/${program.id}/review-settings/`],
    ["PUT", `/api/v1/staff/programs/${program.id}/review-settings/`],
  ];
  const settings = { blindReview: true, disagreementThreshold: 2 };

  test("anonymous: 401", async () => {
    for (const [method, path] of routes()) {
      const body = method === "PUT" ? settings : undefined;
      const res = await ctx.app.handle(json(method, path, body));
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  test("an admin's cookie without the CSRF header cannot change the settings", async () => {
    const path = `/api/v1/staff/programs/${program.id}/review-settings/`;
    const res = await ctx.app.handle(json("PUT", path, settings, { cookie: admin.cookie }));
    expect((await problemOf(res)).code).toBe("CSRF_TOKEN_MISSING");
    const withToken = await ctx.app.handle(
      json("PUT", path, settings, { cookie: admin.cookie, csrf: admin.csrfToken }),
    );
    expect(withToken.status).toBe(200);
    const read = await get<{ blindReview: boolean; disagreementThreshold: number | null }>(path);
    expect(read).toMatchObject(settings);
  });
});
