SELECT i.id, (SELECT max(h._commit) FROM history(items) h WHERE h.id = i.id) AS last_commit FROM items i WHERE EXISTS (SELECT 1 FROM events e WHERE e.kind = i.name) AND i.price > ALL (SELECT price FROM items AS OF COMMIT 4 WHERE price IS NOT NULL) AND i.id IN (SELECT id FROM items AS OF COMMIT 5)

-- compiled
SELECT "i"."id", (SELECT max("h"."_commit")
  FROM (SELECT "c1" AS "id", CASE WHEN NOT "_deleted" THEN "c2" END AS "name", CASE WHEN NOT "_deleted" THEN "c3" END AS "price", "c4" AS "ix", CASE "_g" WHEN 0 THEN ? END AS "_group", "_commit" AS "_commit", "_from" AS "_current_from", "_to" AS "_current_to", "_deleted" AS "_deleted"
  FROM "verso_data"."t2_hist") AS "h"
  WHERE ("h"."id" = "i"."id")) AS "last_commit"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "i"
  WHERE ((EXISTS (SELECT 1
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_to" IS NULL) AS "e"
  WHERE ("e"."kind" = "i"."name")) AND ("i"."price" > ALL (SELECT "price"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items"
  WHERE ("price" IS NOT NULL)))) AND ("i"."id" IN (SELECT "id"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items")))
-- $1 = 'default'
-- $2 = 4 (Long)
-- $3 = 4 (Long)
-- $4 = 5 (Long)
-- $5 = 5 (Long)
