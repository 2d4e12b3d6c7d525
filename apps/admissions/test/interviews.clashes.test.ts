import { describe, expect, test } from "bun:test";
import type { Clashes, Interview } from "../src/modules/interviews/model.ts";
import { createSlot, HOUR, interviewsContext, PATH, slotBody } from "./interviews-support.ts";
import { type Session, signIn } from "./support.ts";
import { call, expectJson } from "./workflow-support.ts";

/*
 * What the staff pages ask ahead of a booking: who of a panel is busy at a time (the clash
 * check without booking), and the interviews still to come (`from`).
 */

const { ctx, admin, reviewer, reviewer2 } = await interviewsContext();

const clashesAt = async (who: Session, query: Record<string, string>) =>
  call(ctx, who, "GET", `${PATH}clashes/?${new URLSearchParams(query)}`);
const ask = async (query: Record<string, string>) =>
  (await expectJson<Clashes>(await clashesAt(admin, query))).clashes;
const at = (hours: number) => new Date(ctx.clock.now() + hours * HOUR).toISOString();

describe("the clash check, booking nothing", () => {
  test("names each busy panel member with the interview they are on and its times", async () => {
    const busy = await signIn(ctx, "reviewer");
    const first = await createSlot(ctx, admin, slotBody(ctx, [busy], 300, 60));
    const clashes = await ask({
      startsAt: at(300.5),
      durationMinutes: "60",
      panel: [reviewer2.user.id, busy.user.id].join(","),
    });
    expect(clashes).toEqual([
      {
        userId: busy.user.id,
        interviewId: first.id,
        startsAt: first.startsAt,
        endsAt: first.endsAt,
      },
    ]);
    // The same overlap rule as the booking: containing and contained clash, back to back not.
    const panel = busy.user.id;
    expect(await ask({ startsAt: at(299.5), durationMinutes: "180", panel })).toHaveLength(1);
    expect(await ask({ startsAt: at(300.25), durationMinutes: "15", panel })).toHaveLength(1);
    expect(await ask({ startsAt: at(301), durationMinutes: "30", panel })).toEqual([]);
    expect(await ask({ startsAt: at(299), durationMinutes: "60", panel })).toEqual([]);
    // What it says is what the booking does.
    const booked = await call(ctx, admin, "POST", PATH, slotBody(ctx, [busy], 300.5, 60));
    expect(booked.status).toBe(409);
    // Nothing was booked by asking: the slot asked about twice is still free for another member.
    expect((await call(ctx, admin, "POST", PATH, slotBody(ctx, [reviewer2], 301, 30))).status).toBe(
      201,
    );
  });

  test("an interview being moved does not clash with itself; a cancelled one frees its panel", async () => {
    const busy = await signIn(ctx, "reviewer");
    const slot = await createSlot(ctx, admin, slotBody(ctx, [busy], 320, 60));
    const query = { startsAt: at(320.5), durationMinutes: "60", panel: busy.user.id };
    expect(await ask(query)).toHaveLength(1);
    expect(await ask({ ...query, exceptId: slot.id })).toEqual([]);
    await expectJson(await call(ctx, admin, "POST", `${PATH}${slot.id}/cancel/`, {}));
    expect(await ask(query)).toEqual([]);
  });

  test("admins only; a malformed time, length or panel is 422", async () => {
    const applicant = await signIn(ctx);
    const query = { startsAt: at(330), durationMinutes: "30", panel: reviewer.user.id };
    for (const who of [reviewer, applicant]) {
      expect((await clashesAt(who, query)).status).toBe(403);
    }
    for (const bad of [
      { ...query, startsAt: "tomorrow" },
      { ...query, durationMinutes: "2" },
      { ...query, durationMinutes: "481" },
      { ...query, panel: "" },
      { ...query, panel: "a b" },
      { ...query, panel: Array.from({ length: 11 }, () => crypto.randomUUID()).join(",") },
      { startsAt: query.startsAt, durationMinutes: "30" },
    ]) {
      expect((await clashesAt(admin, bad)).status).toBe(422);
    }
  });
});

describe("interviews still to come", () => {
  test("`from` leaves out the interviews that ended before it", async () => {
    const member = await signIn(ctx, "reviewer");
    const early = await createSlot(ctx, admin, slotBody(ctx, [member], 400, 60));
    const late = await createSlot(ctx, admin, slotBody(ctx, [member], 410, 60));
    const list = async (from: string) =>
      (
        await expectJson<{ results: Interview[] }>(
          await call(ctx, member, "GET", `${PATH}?mine=true&from=${encodeURIComponent(from)}`),
        )
      ).results.map((i) => i.id);
    expect(await list(at(399))).toEqual([early.id, late.id]);
    // Still under way at `from`: kept.
    expect(await list(at(400.5))).toEqual([early.id, late.id]);
    // Ended exactly then, or before: left out.
    expect(await list(at(401))).toEqual([late.id]);
    expect(await list(at(420))).toEqual([]);
    expect((await call(ctx, member, "GET", `${PATH}?from=soon`)).status).toBe(422);
  });
});
