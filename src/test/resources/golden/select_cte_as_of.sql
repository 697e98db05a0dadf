WITH recent AS (SELECT id, price FROM items AS OF COMMIT 7 WHERE price > 10) SELECT r.id, i.name FROM recent r JOIN items i ON i.id = r.id ORDER BY r.id

-- compiled
WITH "recent" AS (SELECT "id", "price"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items"
  WHERE ("price" > 10)) SELECT "r"."id", "i"."name"
  FROM ("recent" AS "r"
  JOIN (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "i" ON ("i"."id" = "r"."id"))
  ORDER BY "r"."id" ASC
-- $1 = 7 (Long)
-- $2 = 7 (Long)
