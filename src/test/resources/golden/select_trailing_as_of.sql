SELECT address, amount FROM balances WHERE chain_id = 1 ORDER BY amount DESC NULLS LAST AS OF COMMIT 42 LIMIT 10 OFFSET 5

-- compiled
SELECT "address", "amount"
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", (array_agg("c4") FILTER (WHERE "_g" = 1 AND NOT "_deleted"))[1] AS "amount", (array_agg("c5") FILTER (WHERE "_g" = 1 AND NOT "_deleted"))[1] AS "updated_at", (array_agg("c6") FILTER (WHERE "_g" = 1 AND NOT "_deleted"))[1] AS "balance_index", (array_agg("c7") FILTER (WHERE "_g" = 1 AND NOT "_deleted"))[1] AS "balance_version", (array_agg("c8") FILTER (WHERE "_g" = 0 AND NOT "_deleted"))[1] AS "label"
  FROM "verso_data"."t1_hist"
  WHERE "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?)
  GROUP BY "c1", "c2", "c3" HAVING bool_or(NOT "_deleted")) AS "balances"
  WHERE ("chain_id" = 1)
  ORDER BY "amount" DESC NULLS LAST
  LIMIT ? OFFSET ?
-- $1 = 42 (Long)
-- $2 = 42 (Long)
-- $3 = 10 (Long)
-- $4 = 5 (Long)
