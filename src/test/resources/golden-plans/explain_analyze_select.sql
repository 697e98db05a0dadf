EXPLAIN ANALYZE SELECT count(*) FROM events
-- plan
SELECT
reads: events (current rows)
needs: SELECT on events
step 1: read the rows
  SELECT count(*) FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body" FROM "verso_data"."t3_cur" WHERE "_to" IS NULL) AS "events"
