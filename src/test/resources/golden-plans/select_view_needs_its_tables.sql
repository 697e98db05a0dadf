SELECT * FROM cheap ORDER BY id
-- plan
SELECT
reads: items (current rows)
needs: SELECT on items
step 1: read the rows
  SELECT * FROM (SELECT "id", "name" FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix" FROM "verso_data"."t2_cur" WHERE "_d0" = FALSE) AS "items" WHERE ("price" < 5)) AS "cheap"("id", "name") ORDER BY "id" ASC
