WITH named AS (SELECT id, name FROM items) SELECT n.id, o.name FROM named AS OF COMMIT 7 n JOIN named o ON o.id = n.id

-- compiled
WITH "named" AS (SELECT "id", "name"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items") SELECT "n"."id", "o"."name"
  FROM ((WITH "named" AS (SELECT "id", "name"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items") SELECT *
  FROM "named" AS "named") AS "n"("id", "name")
  JOIN "named" AS "o" ON ("o"."id" = "n"."id"))
-- $1 = 7 (Long)
-- $2 = 7 (Long)
