SELECT d.id, d.n FROM (SELECT id, count(*) AS n FROM history(items) GROUP BY id) AS OF COMMIT 8 AS d WHERE d.n > 1

-- compiled
SELECT "d"."id", "d"."n"
  FROM (SELECT "id", count(*) AS "n"
  FROM (SELECT "c1" AS "id", CASE WHEN NOT "_deleted" THEN "c2" END AS "name", CASE WHEN NOT "_deleted" THEN "c3" END AS "price", "c4" AS "ix", CASE "_g" WHEN 0 THEN ? END AS "_group", "_commit" AS "_commit", "_from" AS "_current_from", CASE WHEN "_to" <= ? THEN "_to" END AS "_current_to", "_deleted" AS "_deleted"
  FROM "verso_data"."t2_hist"
  WHERE "_commit" <= ?) AS "items"
  GROUP BY "id") AS "d"
  WHERE ("d"."n" > 1)
-- $1 = 'default'
-- $2 = 8 (Long)
-- $3 = 8 (Long)
