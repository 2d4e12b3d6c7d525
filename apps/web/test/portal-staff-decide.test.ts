import { describe, expect, test } from "bun:test";
import { en } from "../src/client/portal/i18n/en.ts";
import { fr } from "../src/client/portal/i18n/fr.ts";
import { staffDecideEn } from "../src/client/portal/i18n/staff-decide.en.ts";
import { PREVIEWABLE } from "../src/client/portal/staff/api.ts";
import { OFFICE_PROBLEM_KEYS } from "../src/client/portal/staff/ui/StaffProblem.tsx";

/*
 * The review, interview and offer pages name messages from what the API sends (statuses, media
 * types, problem codes): each must be in the catalogue, in both languages.
 */
describe("the review, interview and offer pages' messages", () => {
  test("every status, media type and refusal they name has a message", async () => {
    const models = await import("@platform/admissions/models");
    const keys = [
      ...models.INTERVIEW_STATUSES.map((s) => `decide.interview.status.${s}`),
      ...models.CONDITION_STATUSES.map((s) => `decide.condition.status.${s}`),
      ...models.CONDITION_STATUSES.map((s) => `decide.condition.set.${s}`),
      ...models.DEFERRAL_STATUSES.map((s) => `decide.deferrals.status.${s}`),
      ...models.DEFERRAL_STATUSES.map((s) => `decide.deferrals.done.${s}`),
      ...models.DEFERRAL_STATUSES.map((s) => `decide.deferrals.shown.${s}`),
      ...PREVIEWABLE.map((m) => `decide.media.${m.split("/")[1]}`),
      ...OFFICE_PROBLEM_KEYS,
    ];
    expect(keys.filter((key) => !(key in en))).toEqual([]);
  });

  test("they are translated: French differs from English except where the words are the same", () => {
    // Codes and names that read the same in both languages.
    const same = new Set([
      "decide.media.pdf",
      "decide.calibration.meanSd",
      "decide.deferrals.move",
      "decide.letter.sha256",
      "decide.calibration.programme",
      "decide.conditions.title",
      "decide.interview.scoreBy",
    ]);
    const untranslated = (Object.keys(staffDecideEn) as (keyof typeof staffDecideEn)[]).filter(
      (key) => !same.has(key) && fr[key] === en[key],
    );
    expect(untranslated).toEqual([]);
  });
});
