UPDATE items SET name = upper(name), ix = ix + 1 WHERE price > ?

-- compiled
SELECT CAST("items"."id" AS text),
  CAST(CAST((upper("items"."name")) AS text) AS text),
  CAST("items"."price" AS text),
  CAST(CAST((("items"."ix" + 1)) AS integer) AS text)
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  WHERE ("items"."price" > ?)
-- $1 = 1 (Integer)
