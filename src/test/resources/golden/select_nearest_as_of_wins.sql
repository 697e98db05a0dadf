SELECT x.id FROM (SELECT id FROM items AS OF COMMIT 3) AS OF COMMIT 4 AS x AS OF COMMIT 5

-- compiled
SELECT "x"."id"
  FROM (SELECT "id"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items") AS "x"
-- $1 = 3 (Long)
-- $2 = 3 (Long)
