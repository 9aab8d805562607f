-- migrate: no-transaction
-- The searches logged before the previous migration's trigger, added to their words while the site runs, and the
-- boundary dropped with them: one block, all or nothing, and run again it finds no boundary and adds nothing.
DO $$
BEGIN
  IF to_regclass('search_heat_backfill') IS NULL THEN
    RETURN;
  END IF;
  PERFORM search_heat_merge(array_agg(query), array_agg(id), array_agg(created_at))
  FROM search_log WHERE id <= (SELECT max(upto) FROM search_heat_backfill);
  DROP TABLE search_heat_backfill;
END $$;
