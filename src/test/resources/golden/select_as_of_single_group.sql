SELECT id, name, price FROM items AS OF COMMIT 7 WHERE name ILIKE 'a%' OR price IS NULL

-- compiled
SELECT "id", "name", "price"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items"
  WHERE (("name" ILIKE ?) OR ("price" IS NULL))
-- $1 = 7 (Long)
-- $2 = 7 (Long)
-- $3 = 'a%'
