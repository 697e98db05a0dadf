SELECT id, _commit FROM history(items) AS OF COMMIT 5 WHERE id = 3
-- plan
SELECT
reads: history(items) AS OF COMMIT 5
needs: SELECT on items
step 1: read the rows
  SELECT "id", "_commit" FROM (SELECT "c1" AS "id", CASE WHEN NOT "_deleted" THEN "c2" END AS "name", CASE WHEN NOT "_deleted" THEN "c3" END AS "price", "c4" AS "ix", CASE "_g" WHEN 0 THEN ? END AS "_group", "_commit" AS "_commit", "_from" AS "_current_from", CASE WHEN "_to" <= ? THEN "_to" END AS "_current_to", "_deleted" AS "_deleted" FROM "verso_data"."t2_hist" WHERE "_commit" <= ?) AS "items" WHERE ("id" = 3)
  -- $1 = 'default'
  -- $2 = 5 (Long)
  -- $3 = 5 (Long)
