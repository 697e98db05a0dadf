UPDATE balances SET amount = amount * 2, balance_index = 300, balance_version = 1 WHERE chain_id = 1 AND token = 'USDC'

-- compiled
SELECT CAST("balances"."chain_id" AS text),
  CAST("balances"."address" AS text),
  CAST("balances"."token" AS text),
  CAST(CAST((("balances"."amount" * 2)) AS numeric(38,0)) AS text),
  CAST("balances"."updated_at" AS text),
  CAST(CAST((300) AS bigint) AS text),
  CAST(CAST((1) AS bigint) AS text)
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "balances"
  WHERE (("balances"."chain_id" = 1) AND ("balances"."token" = ?))
-- $1 = 'USDC'
