SELECT * FROM balances WHERE token IN ('USDC', 'DAI') AND amount BETWEEN 1 AND 100

-- compiled
SELECT *
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "balances"
  WHERE (("token" IN (?, ?)) AND ("amount" BETWEEN 1 AND 100))
-- $1 = 'USDC'
-- $2 = 'DAI'
