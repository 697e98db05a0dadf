UPDATE balances SET amount = amount * 2, balance_index = 300, balance_version = 1 WHERE chain_id = 1 AND token = 'USDC'

-- compiled
SELECT CAST(CAST("q"."c0" AS bigint) AS text),
  CAST(CAST("q"."c1" AS text) AS text),
  CAST(CAST("q"."c2" AS text) AS text),
  CAST(CAST("q"."c3" AS numeric(38,0)) AS text),
  CAST(CAST("q"."c4" AS timestamp(3)) AS text),
  CAST(CAST("q"."c5" AS bigint) AS text),
  CAST(CAST("q"."c6" AS bigint) AS text)
  FROM (SELECT "balances"."chain_id", "balances"."address", "balances"."token", ("amount" * 2),
  "balances"."updated_at", 300, 1
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "balances"
  WHERE (("chain_id" = 1) AND ("token" = ?))) AS "q"("c0", "c1", "c2", "c3", "c4", "c5", "c6")
-- $1 = 'USDC'
