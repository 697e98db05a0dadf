DELETE FROM items WHERE price IS NULL OR name LIKE 'tmp%' AT (ix = ?)

-- compiled
SELECT CAST("items"."id" AS text)
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  WHERE (("items"."price" IS NULL) OR ("items"."name" LIKE ?))
-- $1 = 'tmp%'
