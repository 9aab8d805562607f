-- migrate: no-transaction
-- The authors' newest works once had an index of their own here; 0022_author_recent builds the one that replaced it (and
-- drops this one where it was built), so a database migrated from before this file builds nothing here.
SELECT 1;
