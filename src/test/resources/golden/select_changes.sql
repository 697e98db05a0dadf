SELECT address, amount, _commit, _op, _before FROM changes(balances) WHERE _commit > ? ORDER BY _commit

-- compiled
SELECT "address", "amount", "_commit", "_op", "_before"
  FROM (SELECT "_ch"."c1" AS "chain_id", "_ch"."c2" AS "address", "_ch"."c3" AS "token", "_a"."amount" AS "amount", "_a"."updated_at" AS "updated_at", "_a"."balance_index" AS "balance_index", "_a"."balance_version" AS "balance_version", "_a"."label" AS "label", "_ch"."_c" AS "_commit", CASE WHEN "_b"."_present" IS NOT TRUE THEN ? WHEN "_a"."_present" IS NOT TRUE THEN ? ELSE ? END AS "_op", CASE WHEN "_b"."_present" THEN to_jsonb("_b") - ? END AS "_before"
  FROM (SELECT DISTINCT "c1", "c2", "c3", "_from" AS "_c"
  FROM "verso_data"."t1_hist"
  WHERE "_from" IS NOT NULL AND "_from" > ?) AS "_ch" CROSS
  JOIN LATERAL (SELECT "_ch"."c1" AS "chain_id", "_ch"."c2" AS "address", "_ch"."c3" AS "token", verso.winner("_h"."c4") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "amount", verso.winner("_h"."c5") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "updated_at", verso.winner("_h"."c6") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "balance_index", verso.winner("_h"."c7") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "balance_version", verso.winner("_h"."c8") FILTER (WHERE "_h"."_g" = 0 AND NOT "_h"."_deleted") AS "label", bool_or(NOT "_h"."_deleted") AS "_present"
  FROM "verso_data"."t1_hist" AS "_h"
  WHERE "_h"."c1" = "_ch"."c1" AND "_h"."c2" = "_ch"."c2" AND "_h"."c3" = "_ch"."c3" AND "_h"."_from" IS NOT NULL AND "_h"."_from" <= "_ch"."_c" AND ("_h"."_to" IS NULL OR "_h"."_to" > "_ch"."_c")) AS "_a" CROSS
  JOIN LATERAL (SELECT "_ch"."c1" AS "chain_id", "_ch"."c2" AS "address", "_ch"."c3" AS "token", verso.winner("_h"."c4") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "amount", verso.winner("_h"."c5") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "updated_at", verso.winner("_h"."c6") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "balance_index", verso.winner("_h"."c7") FILTER (WHERE "_h"."_g" = 1 AND NOT "_h"."_deleted") AS "balance_version", verso.winner("_h"."c8") FILTER (WHERE "_h"."_g" = 0 AND NOT "_h"."_deleted") AS "label", bool_or(NOT "_h"."_deleted") AS "_present"
  FROM "verso_data"."t1_hist" AS "_h"
  WHERE "_h"."c1" = "_ch"."c1" AND "_h"."c2" = "_ch"."c2" AND "_h"."c3" = "_ch"."c3" AND "_h"."_from" IS NOT NULL AND "_h"."_from" <= "_ch"."_c" - 1 AND ("_h"."_to" IS NULL OR "_h"."_to" > "_ch"."_c" - 1)) AS "_b"
  WHERE ("_a"."_present" OR "_b"."_present") AND NOT ("_a"."_present" AND "_b"."_present" AND to_jsonb("_a") = to_jsonb("_b"))) AS "balances"
  WHERE ("_commit" > ?)
  ORDER BY "_commit" ASC
-- $1 = 'insert'
-- $2 = 'delete'
-- $3 = 'update'
-- $4 = '_present'
-- $5 = 0 (Long)
-- $6 = 1 (Integer)
