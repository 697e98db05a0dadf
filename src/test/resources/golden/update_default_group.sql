UPDATE items SET name = upper(name), ix = ix + 1 WHERE price > ?

-- compiled
SELECT CAST(CAST("q"."c0" AS bigint) AS text),
  CAST(CAST("q"."c1" AS text) AS text),
  CAST(CAST("q"."c2" AS numeric(12,2)) AS text),
  CAST(CAST("q"."c3" AS integer) AS text)
  FROM (SELECT "items"."id", upper("name"),
  "items"."price", ("ix" + 1)
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  WHERE ("price" > ?)) AS "q"("c0", "c1", "c2", "c3")
-- $1 = 1 (Integer)
