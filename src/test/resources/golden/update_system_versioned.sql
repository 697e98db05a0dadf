UPDATE prices SET price = price * 2 WHERE id = ?

-- compiled
WITH "m" AS (SELECT "prices"."_rid", CAST((("price" * 2)) AS numeric(10,2)) AS "v0"
  FROM (SELECT "_rid", "c1" AS "id", "c2" AS "price", "_start" AS "row_start", "_end" AS "row_end"
  FROM "verso_data"."t5_cur"
  WHERE "_to" IS NULL) AS "prices"
  WHERE ("id" = ?)),
  "h" AS (INSERT INTO "verso_data"."t5_cur" ("_rid", "c1", "c2", "_from", "_to", "_start", "_end") SELECT "x"."_rid", "x"."c1", "x"."c2", "x"."_from", ?, "x"."_start", CAST(? AS timestamp)
  FROM "verso_data"."t5_cur" AS "x"
  JOIN "m" ON "x"."_rid" = "m"."_rid"
  WHERE "x"."_to" IS NULL AND "x"."_from" < ? AND ?),
  "u" AS (UPDATE "verso_data"."t5_cur" AS "x" SET "c2" = "m"."v0", "_from" = ?, "_start" = CAST(? AS timestamp)
  FROM "m"
  WHERE "x"."_rid" = "m"."_rid" AND "x"."_to" IS NULL
  RETURNING 1) SELECT count(*)
  FROM "u"
-- $1 = 1 (Integer)
-- $2 = 42 (Long)
-- $3 = '2026-01-02T03:04:05.678'
-- $4 = 42 (Long)
-- $5 = true (Boolean)
-- $6 = 42 (Long)
-- $7 = '2026-01-02T03:04:05.678'
