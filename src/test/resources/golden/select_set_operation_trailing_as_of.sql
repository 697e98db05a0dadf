SELECT id FROM items UNION ALL SELECT id FROM items AS OF COMMIT 3 EXCEPT SELECT id FROM items WHERE price IS NULL ORDER BY 1 AS OF COMMIT 9 LIMIT 5

-- compiled
((SELECT "id"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items") UNION ALL (SELECT "id"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items")) EXCEPT (SELECT "id"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items"
  WHERE ("price" IS NULL))
  ORDER BY 1 ASC
  LIMIT ?
-- $1 = 9 (Long)
-- $2 = 9 (Long)
-- $3 = 3 (Long)
-- $4 = 3 (Long)
-- $5 = 9 (Long)
-- $6 = 9 (Long)
-- $7 = 5 (Long)
