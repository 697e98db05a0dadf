SELECT address, amount FROM balances AS OF COMMIT 42 WHERE chain_id = 1 AND label IS NULL

-- compiled
SELECT "address", "amount"
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", CASE WHEN "_g" = 1 THEN "c4" END AS "amount", CASE WHEN "_g" = 1 THEN "c5" END AS "updated_at", CASE WHEN "_g" = 1 THEN "c6" END AS "balance_index", CASE WHEN "_g" = 1 THEN "c7" END AS "balance_version", CASE WHEN "_g" = 0 THEN "c8" END AS "label"
  FROM "verso_data"."t1_hist"
  WHERE "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted" AND (SELECT count(*)
  FROM verso.group_versions
  WHERE table_id = 1 AND first_commit <= ?) <= 1 UNION ALL SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", verso.winner("c4") FILTER (WHERE "_g" = 1 AND NOT "_deleted") AS "amount", verso.winner("c5") FILTER (WHERE "_g" = 1 AND NOT "_deleted") AS "updated_at", verso.winner("c6") FILTER (WHERE "_g" = 1 AND NOT "_deleted") AS "balance_index", verso.winner("c7") FILTER (WHERE "_g" = 1 AND NOT "_deleted") AS "balance_version", verso.winner("c8") FILTER (WHERE "_g" = 0 AND NOT "_deleted") AS "label"
  FROM "verso_data"."t1_hist"
  WHERE "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND (SELECT count(*)
  FROM verso.group_versions
  WHERE table_id = 1 AND first_commit <= ?) > 1
  GROUP BY "c1", "c2", "c3" HAVING bool_or(NOT "_deleted")) AS "balances"
  WHERE (("chain_id" = 1) AND ("label" IS NULL))
-- $1 = 42 (Long)
-- $2 = 42 (Long)
-- $3 = 42 (Long)
-- $4 = 42 (Long)
-- $5 = 42 (Long)
-- $6 = 42 (Long)
