UPSERT INTO balances (chain_id, address, token, amount, updated_at, balance_index, balance_version) VALUES (1, '0x9c2e4f1a', 'USDC', 100, '2026-10-01 12:00:00.000', 100, 1) ATTRIBUTE GROUP holding

-- compiled
WITH src0 AS (SELECT CAST(u.a0 AS bigint) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS text) AS "c3", CAST(u.a3 AS numeric(38,0)) AS "c4", CAST(u.a4 AS timestamp(3)) AS "c5", CAST(u.a5 AS bigint) AS "c6", CAST(u.a6 AS bigint) AS "c7", u.pos AS "_pos"
  FROM unnest(?, ?, ?, ?, ?, ?, ?, ?) AS u(a0, a1, a2, a3, a4, a5, a6, pos)),
  best0 AS (SELECT DISTINCT ON ("c1", "c2", "c3") *
  FROM src0
  ORDER BY "c1", "c2", "c3", "c6" DESC, "c7" DESC, "_pos" DESC),
  cand0 AS (SELECT best0.*, "cur"."_c1" AS "_oc", "cur"."_p1" AS "_op"
  FROM best0 LEFT
  JOIN "verso_data"."t1_cur" AS cur USING ("c1", "c2", "c3")
  WHERE "cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (best0."c6", best0."c7", ?, best0."_pos")),
  pick AS (SELECT "c1", "c2", "c3", "cand0"."c4", "cand0"."c5", "cand0"."c6", "cand0"."c7", "cand0"."_pos" AS "_pos0"
  FROM cand0),
  won AS (INSERT INTO "verso_data"."t1_cur" AS cur ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "_c1", "_p1", "_d1") SELECT "c1", "c2", "c3", "c4", "c5", "c6", "c7", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END, "_pos0", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END
  FROM pick
  ON CONFLICT ("c1", "c2", "c3") DO UPDATE SET "c4" = EXCLUDED."c4", "c5" = EXCLUDED."c5", "c6" = EXCLUDED."c6", "c7" = EXCLUDED."c7", "_c1" = EXCLUDED."_c1", "_p1" = EXCLUDED."_p1", "_d1" = EXCLUDED."_d1"
  WHERE (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1")))
  RETURNING "cur"."c1", "cur"."c2", "cur"."c3", "cur"."_c1", "cur"."_p1"),
  w0 AS MATERIALIZED (SELECT cand0.*
  FROM cand0
  JOIN won USING ("c1", "c2", "c3")
  WHERE "won"."_c1" = ? AND "won"."_p1" = "cand0"."_pos"),
  closed0 AS (UPDATE "verso_data"."t1_hist" AS h SET "_to" = CASE WHEN h."_from" = ? THEN NULL ELSE ? END, "_from" = CASE WHEN h."_from" = ? THEN NULL ELSE h."_from" END
  FROM w0 AS old
  WHERE "h"."c1" = "old"."c1" AND "h"."c2" = "old"."c2" AND "h"."c3" = "old"."c3" AND "h"."_from" IS NOT NULL AND "h"."_g" = 1 AND "h"."_commit" = "old"."_oc" AND "h"."_pos" = "old"."_op"
  RETURNING 1),
  ins0 AS (INSERT INTO "verso_data"."t1_hist" ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "_g", "_commit", "_pos", "_deleted", "_from") SELECT "s"."c1", "s"."c2", "s"."c3", "s"."c4", "s"."c5", "s"."c6", "s"."c7", 1, ?, s."_pos", ?, CASE WHEN w."_pos" IS NULL THEN NULL ELSE ? END
  FROM src0 AS s LEFT
  JOIN w0 AS w ON "w"."c1" = "s"."c1" AND "w"."c2" = "s"."c2" AND "w"."c3" = "s"."c3" AND w."_pos" = s."_pos"
  RETURNING 1),
  seen0 AS (INSERT INTO verso.group_versions (table_id, group_id, first_commit) SELECT 1, 1, ?
  FROM w0
  LIMIT 1
  ON CONFLICT DO NOTHING) SELECT ((SELECT count(*)
  FROM ins0)),
  (SELECT array_agg("_pos")
  FROM (SELECT "_pos"
  FROM w0) AS w),
  ((SELECT count(*)
  FROM closed0))
-- $1 = text[1] (ArrayBind)
-- $2 = text[0x9c2e4f1a] (ArrayBind)
-- $3 = text[USDC] (ArrayBind)
-- $4 = text[100] (ArrayBind)
-- $5 = text[2026-10-01 12:00:00.000] (ArrayBind)
-- $6 = text[100] (ArrayBind)
-- $7 = text[1] (ArrayBind)
-- $8 = int4[0] (ArrayBind)
-- $9 = 42 (Long)
-- $10 = 42 (Long)
-- $11 = false (Boolean)
-- $12 = 42 (Long)
-- $13 = 42 (Long)
-- $14 = 42 (Long)
-- $15 = 42 (Long)
-- $16 = 42 (Long)
-- $17 = false (Boolean)
-- $18 = 42 (Long)
-- $19 = 42 (Long)
