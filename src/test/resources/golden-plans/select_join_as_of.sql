SELECT i.name, e.kind FROM items i JOIN events AS OF COMMIT 7 e ON e.kind = i.name WHERE i.id = ?
-- plan
SELECT
reads: items (current rows), events AS OF COMMIT 7
needs: SELECT on items, SELECT on events
step 1: read the rows
  SELECT "i"."name", "e"."kind" FROM ((SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix" FROM "verso_data"."t2_cur" WHERE "_d0" = FALSE) AS "i" JOIN (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body" FROM "verso_data"."t3_cur" WHERE "_commit" <= ? AND ("_to" IS NULL OR "_to" > ?)) AS "e" ON ("e"."kind" = "i"."name")) WHERE ("i"."id" = ?)
  -- $1 = 7 (Long)
  -- $2 = 7 (Long)
  -- $3 = 1 (Integer)
