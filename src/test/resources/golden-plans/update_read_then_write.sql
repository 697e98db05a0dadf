UPDATE items SET price = price * 2, ix = 3 WHERE name = ?
-- plan
UPDATE items
reads: items (current rows)
needs: SELECT on items, WRITE on items
step 1: read the rows it matches, with their new values
  SELECT CAST(CAST("q"."c0" AS bigint) AS text), CAST(CAST("q"."c1" AS text) AS text), CAST(CAST("q"."c2" AS numeric(12,2)) AS text), CAST(CAST("q"."c3" AS integer) AS text) FROM (SELECT "items"."id", "items"."name", ("price" * 2), 3 FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix" FROM "verso_data"."t2_cur" WHERE "_d0" = FALSE) AS "items" WHERE ("name" = ?)) AS "q"("c0", "c1", "c2", "c3")
  -- $1 = 1 (Integer)
step 2: write a new version of attribute group(s) default of each row read, at this request's commit
