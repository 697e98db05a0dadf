DELETE FROM items WHERE price IS NULL OR name LIKE 'tmp%' AT (ix = ?)

-- compiled
SELECT CAST(CAST("q"."c0" AS bigint) AS text)
  FROM (SELECT "items"."id"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  WHERE (("price" IS NULL) OR ("name" LIKE ?))) AS "q"("c0")
-- $1 = 'tmp%'
