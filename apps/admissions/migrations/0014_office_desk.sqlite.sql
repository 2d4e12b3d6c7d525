-- The office's desk (issue 37): what a bank transfer brought in, and each review's weighted
-- total kept beside its scores so the office's queue can filter and sort by score in SQL.
-- SQLite's half; 0014_office_desk.postgres.sql is the same for PostgreSQL.

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
UPDATE reviews SET weighted_total = (
  SELECT round(
    sum(coalesce(json_extract(reviews.scores, '$."' || json_extract(c.value, '$.key') || '"'), 0)
      * json_extract(c.value, '$.weight')) * 1.0
    / sum(json_extract(c.value, '$.weight')), 2)
  FROM applications a
  JOIN rubrics ru ON ru.program_id = a.program_id, json_each(ru.criteria) c
  WHERE a.id = reviews.application_id
);
