SELECT id, _commit, lag(price) OVER w AS previous, row_number() OVER (PARTITION BY id ORDER BY _commit DESC) AS rn, sum(price) OVER (ORDER BY _commit ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM history(items) WHERE _commit BETWEEN 40 AND 50 WINDOW w AS (PARTITION BY id ORDER BY _commit)

-- compiled
SELECT "id", "_commit", lag("price") OVER "w" AS "previous", row_number() OVER (PARTITION BY "id"
  ORDER BY "_commit" DESC) AS "rn", sum("price") OVER (ORDER BY "_commit" ASC ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
  FROM (SELECT "c1" AS "id", CASE WHEN NOT "_deleted" THEN "c2" END AS "name", CASE WHEN NOT "_deleted" THEN "c3" END AS "price", "c4" AS "ix", CASE "_g" WHEN 0 THEN ? END AS "_group", "_commit" AS "_commit", "_from" AS "_current_from", "_to" AS "_current_to", "_deleted" AS "_deleted"
  FROM "verso_data"."t2_hist") AS "items"
  WHERE ("_commit" BETWEEN 40 AND 50) WINDOW "w" AS (PARTITION BY "id"
  ORDER BY "_commit" ASC)
-- $1 = 'default'
