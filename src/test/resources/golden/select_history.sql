SELECT * FROM history(items) WHERE id = 1 ORDER BY _commit

-- compiled
SELECT *
  FROM (SELECT "c1" AS "id", CASE WHEN NOT "_deleted" THEN "c2" END AS "name", CASE WHEN NOT "_deleted" THEN "c3" END AS "price", "c4" AS "ix", CASE "_g" WHEN 0 THEN ? END AS "_group", "_commit" AS "_commit", "_from" AS "_current_from", "_to" AS "_current_to", "_deleted" AS "_deleted"
  FROM "verso_data"."t2_hist") AS "items"
  WHERE ("id" = 1)
  ORDER BY "_commit" ASC
-- $1 = 'default'
