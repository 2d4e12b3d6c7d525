import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { staffApi } from "../api.ts";
import type { Seats } from "../types.ts";

/** Seats change as other admins decide and applicants answer: read again this often. */
const SEATS_EVERY_MS = 10_000;

/**
 * The intake's seats, live: read on arrival, every 10 s, and at once whenever `refresh` changes
 * (after each decision tried here). Announced politely to screen readers as they change.
 */
export function SeatCounts({
  intakeId,
  refresh,
  label = t("staff.seats.label"),
  testId = "seats",
}: {
  intakeId: string;
  refresh: number;
  /** What the counts are of, for screen readers (the decision's: this intake). */
  label?: string;
  testId?: string;
}) {
  const [seats, setSeats] = useState<Seats | null>(null);
  useEffect(() => {
    let current = true; // a read for the previous intake can answer last
    const read = () =>
      staffApi.seats(intakeId).then((a) => {
        if (current && a.ok) setSeats(a.data);
      });
    read();
    const timer = setInterval(read, SEATS_EVERY_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [intakeId, refresh]);
  if (!seats) return null;
  const rows = [
    ["staff.seats.capacity", seats.capacity],
    ["staff.seats.held", seats.held],
    ["staff.seats.taken", seats.taken],
    ["staff.seats.available", seats.available],
    ["staff.seats.waitlisted", seats.waitlisted],
  ] as const;
  return (
    <dl
      class="seats"
      aria-live="polite"
      aria-label={label}
      data-testid={testId}
      data-available={seats.available}
      data-held={seats.held}
    >
      {rows.map(([key, value]) => (
        <div key={key}>
          <dt>{t(key)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
