WITH RECURSIVE cheaper (id, depth) AS (SELECT id, 0 FROM items WHERE price > 100 UNION ALL SELECT i.id, c.depth + 1 FROM items i JOIN cheaper c ON i.ix = c.id WHERE c.depth < 5) SELECT id, depth FROM cheaper ORDER BY id AS OF COMMIT 7

-- compiled
WITH RECURSIVE "cheaper"("id", "depth") AS ((SELECT "id", 0
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items"
  WHERE ("price" > 100)) UNION ALL (SELECT "i"."id", ("c"."depth" + 1)
  FROM ((SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "i"
  JOIN "cheaper" AS "c" ON ("i"."ix" = "c"."id"))
  WHERE (("c"."depth" < 5)) AND verso.recursion_step())) SELECT "id", "depth"
  FROM "cheaper" AS "cheaper"
  ORDER BY "id" ASC
-- $1 = 7 (Long)
-- $2 = 7 (Long)
-- $3 = 7 (Long)
-- $4 = 7 (Long)
