UPDATE items SET name = DEFAULT, price = DEFAULT, ix = ? WHERE id = ?

-- compiled
SELECT CAST(CAST("q"."c0" AS bigint) AS text),
  CAST(CAST("q"."c1" AS text) AS text),
  CAST(CAST("q"."c2" AS numeric(12,2)) AS text),
  CAST(CAST("q"."c3" AS integer) AS text)
  FROM (SELECT "items"."id", CAST(? AS text),
  NULL, ?
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  WHERE ("id" = ?)) AS "q"("c0", "c1", "c2", "c3")
-- $1 = 'unnamed'
-- $2 = 1 (Integer)
-- $3 = 2 (Integer)
