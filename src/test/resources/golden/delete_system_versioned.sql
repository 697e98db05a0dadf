DELETE FROM prices WHERE price < 1

-- compiled
WITH "m" AS (SELECT "prices"."_rid"
  FROM (SELECT "_rid", "c1" AS "id", "c2" AS "price", "_start" AS "row_start", "_end" AS "row_end"
  FROM "verso_data"."t5_cur"
  WHERE "_to" IS NULL) AS "prices"
  WHERE ("price" < 1)),
  "d" AS (DELETE
  FROM "verso_data"."t5_cur" AS "x" USING "m"
  WHERE "x"."_rid" = "m"."_rid" AND "x"."_to" IS NULL AND ("x"."_from" = ? AND EXISTS (SELECT 1
  FROM "verso_data"."t5_cur" AS "y"
  WHERE "y"."_to" = ? AND "y"."c1" = "x"."c1"))
  RETURNING 1),
  "u" AS (UPDATE "verso_data"."t5_cur" AS "x" SET "_to" = ?, "_end" = CAST(? AS timestamp)
  FROM "m"
  WHERE "x"."_rid" = "m"."_rid" AND "x"."_to" IS NULL AND NOT ("x"."_from" = ? AND EXISTS (SELECT 1
  FROM "verso_data"."t5_cur" AS "y"
  WHERE "y"."_to" = ? AND "y"."c1" = "x"."c1"))
  RETURNING 1) SELECT (SELECT count(*)
  FROM "u") + (SELECT count(*)
  FROM "d")
-- $1 = 42 (Long)
-- $2 = 42 (Long)
-- $3 = 42 (Long)
-- $4 = '2026-01-02T03:04:05.678'
-- $5 = 42 (Long)
-- $6 = 42 (Long)
