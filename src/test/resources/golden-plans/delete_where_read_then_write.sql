DELETE FROM items WHERE price > 10 AT (ix = 9)
-- plan
DELETE FROM items
reads: items (current rows)
needs: SELECT on items, WRITE on items
step 1: read the keys of the rows it matches
  SELECT CAST(CAST("q"."c0" AS bigint) AS text) FROM (SELECT "items"."id" FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix" FROM "verso_data"."t2_cur" WHERE "_d0" = FALSE) AS "items" WHERE ("price" > 10)) AS "q"("c0")
step 2: write a tombstone for each key read, at this request's commit
