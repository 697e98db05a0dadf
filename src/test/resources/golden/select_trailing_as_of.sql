SELECT address, amount FROM balances WHERE chain_id = 1 ORDER BY amount DESC NULLS LAST AS OF COMMIT 42 LIMIT 10 OFFSET 5

-- compiled
SELECT "balances"."address", "balances"."amount"
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", CASE WHEN "g1"."_deleted" THEN NULL ELSE "g1"."c4" END AS "amount", CASE WHEN "g1"."_deleted" THEN NULL ELSE "g1"."c5" END AS "updated_at", CASE WHEN "g1"."_deleted" THEN NULL ELSE "g1"."c6" END AS "balance_index", CASE WHEN "g1"."_deleted" THEN NULL ELSE "g1"."c7" END AS "balance_version", CASE WHEN "g0"."_deleted" THEN NULL ELSE "g0"."c8" END AS "label"
  FROM (SELECT *
  FROM "verso_data"."t1_hist"
  WHERE "_g" = 0 AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?)) AS "g0" FULL
  JOIN (SELECT *
  FROM "verso_data"."t1_hist"
  WHERE "_g" = 1 AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?)) AS "g1" USING ("c1", "c2", "c3")
  WHERE "g0"."_deleted" = FALSE OR "g1"."_deleted" = FALSE) AS "balances"
  WHERE ("balances"."chain_id" = ?)
  ORDER BY "balances"."amount" DESC NULLS LAST
  LIMIT ? OFFSET ?
-- $1 = 42 (Long)
-- $2 = 42 (Long)
-- $3 = 42 (Long)
-- $4 = 42 (Long)
-- $5 = 1 (Integer)
-- $6 = 10 (Long)
-- $7 = 5 (Long)
