-- The office's desk (issue 37): what a bank transfer brought in, and each review's weighted
-- total kept beside its scores so the office's queue can filter and sort by score in SQL.
-- PostgreSQL's half; 0014_office_desk.sqlite.sql is the same for SQLite.

-- What staff saw arrive for a manual payment when they confirmed it (minor units, the
-- payment's currency). NULL: not recorded (Stripe, or confirmed without an amount), read as
-- the amount due. More than `amount` is an over-payment; less is refused, so never stored.
ALTER TABLE payments ADD COLUMN amount_received INTEGER CHECK (amount_received > 0);
-- The payments desk lists by status, newest first.
CREATE INDEX payments_status_created ON payments (status, created_at, id);

-- Σ score × weight / Σ weight on the program's rubric, to two decimals, as the review was saved
-- (rubrics are fixed once an application of the program is scored, so it never goes stale).
ALTER TABLE reviews ADD COLUMN weighted_total DOUBLE PRECISION;
CREATE INDEX reviews_application ON reviews (application_id, weighted_total);

-- Reviews written before: their totals from the scores and the rubric's criteria (JSON).
UPDATE reviews SET weighted_total = totals.total
FROM (
  SELECT r.id, round((
    sum(coalesce((r.scores::jsonb ->> (c ->> 'key'))::double precision, 0)
      * (c ->> 'weight')::double precision)
    / sum((c ->> 'weight')::double precision))::numeric, 2)::double precision AS total
  FROM reviews r
  JOIN applications a ON a.id = r.application_id
  JOIN rubrics ru ON ru.program_id = a.program_id
  CROSS JOIN LATERAL jsonb_array_elements(ru.criteria::jsonb) c
  GROUP BY r.id
) AS totals
WHERE reviews.id = totals.id;
