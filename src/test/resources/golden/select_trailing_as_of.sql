SELECT address, amount FROM balances WHERE chain_id = 1 ORDER BY amount DESC NULLS LAST AS OF COMMIT 42 LIMIT 10 OFFSET 5

-- compiled
SELECT "address", "amount"
  FROM (SELECT "_k"."c1" AS "chain_id", "_k"."c2" AS "address", "_k"."c3" AS "token", CASE WHEN NOT "_h1"."_deleted" THEN "_h1"."c4" END AS "amount", CASE WHEN NOT "_h1"."_deleted" THEN "_h1"."c5" END AS "updated_at", CASE WHEN NOT "_h1"."_deleted" THEN "_h1"."c6" END AS "balance_index", CASE WHEN NOT "_h1"."_deleted" THEN "_h1"."c7" END AS "balance_version", CASE WHEN NOT "_h0"."_deleted" THEN "_h0"."c8" END AS "label"
  FROM "verso_data"."t1_cur" AS "_k" LEFT
  JOIN "verso_data"."t1_hist" AS "_h0" ON "_h0"."c1" = "_k"."c1" AND "_h0"."c2" = "_k"."c2" AND "_h0"."c3" = "_k"."c3" AND "_h0"."_g" = 0 AND "_h0"."_from" IS NOT NULL AND "_h0"."_from" <= ? AND ("_h0"."_to" IS NULL OR "_h0"."_to" > ?) LEFT
  JOIN "verso_data"."t1_hist" AS "_h1" ON "_h1"."c1" = "_k"."c1" AND "_h1"."c2" = "_k"."c2" AND "_h1"."c3" = "_k"."c3" AND "_h1"."_g" = 1 AND "_h1"."_from" IS NOT NULL AND "_h1"."_from" <= ? AND ("_h1"."_to" IS NULL OR "_h1"."_to" > ?)
  WHERE "_h0"."_deleted" = FALSE OR "_h1"."_deleted" = FALSE) AS "balances"
  WHERE ("chain_id" = 1)
  ORDER BY "amount" DESC NULLS LAST
  LIMIT ? OFFSET ?
-- $1 = 42 (Long)
-- $2 = 42 (Long)
-- $3 = 42 (Long)
-- $4 = 42 (Long)
-- $5 = 10 (Long)
-- $6 = 5 (Long)
