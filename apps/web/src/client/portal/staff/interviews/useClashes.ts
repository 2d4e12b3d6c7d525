import type { Clashes } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import { interviewsApi } from "./api.ts";

/** Typing pauses this long before the panel's diaries are asked about (one request, not one a key). */
const ASK_AFTER_MS = 300;

export type Clash = Clashes["clashes"][number];

/**
 * Who of the panel is busy at the time being filled in, asked of the API as the form changes
 * (GET /interviews/clashes/, which books nothing): the warning comes before saving, and the
 * saving still checks again under the API's locks. Nothing is asked until the time, length
 * and panel are all there; `exceptId` is the interview being moved.
 */
export function useClashes(
  slot: { startsAt: string; durationMinutes: number; panel: string[] },
  exceptId?: string,
): Clash[] {
  const [clashes, setClashes] = useState<Clash[]>([]);
  const ready =
    !Number.isNaN(Date.parse(slot.startsAt)) &&
    Number.isInteger(slot.durationMinutes) &&
    slot.durationMinutes >= 5 &&
    slot.durationMinutes <= 480 &&
    slot.panel.length > 0 &&
    slot.panel.length <= 10;
  const key = `${slot.startsAt}|${slot.durationMinutes}|${slot.panel.join(",")}`;
  useEffect(() => {
    if (!ready) {
      setClashes([]);
      return;
    }
    let alive = true;
    const timer = setTimeout(() => {
      interviewsApi.clashes(slot, exceptId).then((a) => {
        if (alive) setClashes(a.ok ? a.data.clashes : []);
      });
    }, ASK_AFTER_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [key, ready]);
  return clashes;
}
