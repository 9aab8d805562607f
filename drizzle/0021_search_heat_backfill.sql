-- migrate: no-transaction
-- The searches logged before the previous migration's trigger, added to their words while the site runs, and the
-- boundary dropped with them: one block, all or nothing, and run again it finds no boundary and adds nothing.
DO $$
BEGIN
  IF to_regclass('search_heat_backfill') IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO search_heat AS h (query, first_id, burst, week)
  SELECT query, min(id), mb + ln(sum(power(2::float8, greatest(b - mb, -1000)))) / ln(2::float8),
    mw + ln(sum(power(2::float8, greatest(w - mw, -1000)))) / ln(2::float8)
  FROM (
    SELECT query, id, b, w, max(b) OVER (PARTITION BY query) AS mb, max(w) OVER (PARTITION BY query) AS mw
    FROM (
      SELECT query, id, search_burst_key(created_at) AS b, search_week_key(created_at) AS w
      FROM search_log WHERE id <= (SELECT max(upto) FROM search_heat_backfill)
    ) r
  ) x
  GROUP BY query, mb, mw
  ON CONFLICT (query) DO UPDATE SET
    first_id = least(h.first_id, excluded.first_id),
    burst = search_log2_add(h.burst, excluded.burst),
    week = search_log2_add(h.week, excluded.week);
  DROP TABLE search_heat_backfill;
END $$;
