SELECT _group, _current_to FROM history(balances) AS OF COMMIT 9

-- compiled
SELECT "_group", "_current_to"
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", CASE WHEN NOT "_deleted" AND "_g" = 1 THEN "c4" END AS "amount", CASE WHEN NOT "_deleted" AND "_g" = 1 THEN "c5" END AS "updated_at", "c6" AS "balance_index", "c7" AS "balance_version", CASE WHEN NOT "_deleted" AND "_g" = 0 THEN "c8" END AS "label", CASE "_g" WHEN 0 THEN ? WHEN 1 THEN ? END AS "_group", "_commit" AS "_commit", "_from" AS "_current_from", CASE WHEN "_to" <= ? THEN "_to" END AS "_current_to", "_deleted" AS "_deleted"
  FROM "verso_data"."t1_hist"
  WHERE "_commit" <= ?) AS "balances"
-- $1 = 'default'
-- $2 = 'holding'
-- $3 = 9 (Long)
-- $4 = 9 (Long)
