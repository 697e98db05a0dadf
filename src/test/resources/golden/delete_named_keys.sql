DELETE FROM balances WHERE chain_id = 1 AND address IN ('0x9c2e4f1a', '0x77aa') AND token = 'USDC' AT (balance_index = 300, balance_version = 1)

-- compiled
WITH src0 AS (SELECT CAST(u.a0 AS bigint) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS text) AS "c3", CAST(u.a3 AS text) AS "c8", u.pos AS "_pos"
  FROM unnest(?, ?, ?, ?, ?) AS u(a0, a1, a2, a3, pos)),
  best0 AS (SELECT DISTINCT ON ("c1", "c2", "c3") *
  FROM src0
  ORDER BY "c1", "c2", "c3", "_pos" DESC),
  cand0 AS (SELECT best0.*, "cur"."_c0" AS "_oc", "cur"."_p0" AS "_op"
  FROM best0 LEFT
  JOIN "verso_data"."t1_cur" AS cur USING ("c1", "c2", "c3")
  WHERE "cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (?, best0."_pos")),
  src1 AS (SELECT CAST(u.a0 AS bigint) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS text) AS "c3", CAST(u.a3 AS numeric(38,0)) AS "c4", CAST(u.a4 AS timestamp(3)) AS "c5", CAST(u.a5 AS bigint) AS "c6", CAST(u.a6 AS bigint) AS "c7", u.pos AS "_pos"
  FROM unnest(?, ?, ?, ?, ?, ?, ?, ?) AS u(a0, a1, a2, a3, a4, a5, a6, pos)),
  best1 AS (SELECT DISTINCT ON ("c1", "c2", "c3") *
  FROM src1
  ORDER BY "c1", "c2", "c3", "c6" DESC, "c7" DESC, "_pos" DESC),
  cand1 AS (SELECT best1.*, "cur"."_c1" AS "_oc", "cur"."_p1" AS "_op"
  FROM best1 LEFT
  JOIN "verso_data"."t1_cur" AS cur USING ("c1", "c2", "c3")
  WHERE "cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (best1."c6", best1."c7", ?, best1."_pos")),
  pick AS (SELECT "c1", "c2", "c3", "cand0"."c8", "cand0"."_pos" AS "_pos0", "cand1"."c4", "cand1"."c5", "cand1"."c6", "cand1"."c7", "cand1"."_pos" AS "_pos1"
  FROM cand0 FULL
  JOIN cand1 USING ("c1", "c2", "c3")),
  won AS (INSERT INTO "verso_data"."t1_cur" AS cur ("c1", "c2", "c3", "c8", "_c0", "_p0", "_d0", "c4", "c5", "c6", "c7", "_c1", "_p1", "_d1") SELECT "c1", "c2", "c3", "c8", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END, "_pos0", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END, "c4", "c5", "c6", "c7", CASE WHEN "_pos1" IS NULL THEN NULL ELSE ? END, "_pos1", CASE WHEN "_pos1" IS NULL THEN NULL ELSE ? END
  FROM pick
  ON CONFLICT ("c1", "c2", "c3") DO UPDATE SET "c8" = CASE WHEN (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0"))) THEN EXCLUDED."c8" ELSE "cur"."c8" END, "_c0" = CASE WHEN (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0"))) THEN EXCLUDED."_c0" ELSE "cur"."_c0" END, "_p0" = CASE WHEN (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0"))) THEN EXCLUDED."_p0" ELSE "cur"."_p0" END, "_d0" = CASE WHEN (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0"))) THEN EXCLUDED."_d0" ELSE "cur"."_d0" END, "c4" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."c4" ELSE "cur"."c4" END, "c5" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."c5" ELSE "cur"."c5" END, "c6" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."c6" ELSE "cur"."c6" END, "c7" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."c7" ELSE "cur"."c7" END, "_c1" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."_c1" ELSE "cur"."_c1" END, "_p1" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."_p1" ELSE "cur"."_p1" END, "_d1" = CASE WHEN (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1"))) THEN EXCLUDED."_d1" ELSE "cur"."_d1" END
  WHERE (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0"))) OR (EXCLUDED."_p1" IS NOT NULL AND ("cur"."_d1" IS NULL OR ("cur"."c6", "cur"."c7", "cur"."_c1", "cur"."_p1") < (EXCLUDED."c6", EXCLUDED."c7", EXCLUDED."_c1", EXCLUDED."_p1")))
  RETURNING "cur"."c1", "cur"."c2", "cur"."c3", "cur"."_c0", "cur"."_p0", "cur"."_c1", "cur"."_p1"),
  w0 AS MATERIALIZED (SELECT cand0.*
  FROM cand0
  JOIN won USING ("c1", "c2", "c3")
  WHERE "won"."_c0" = ? AND "won"."_p0" = "cand0"."_pos"),
  w1 AS MATERIALIZED (SELECT cand1.*
  FROM cand1
  JOIN won USING ("c1", "c2", "c3")
  WHERE "won"."_c1" = ? AND "won"."_p1" = "cand1"."_pos"),
  closed0 AS (UPDATE "verso_data"."t1_hist" AS h SET "_to" = CASE WHEN h."_from" = ? THEN NULL ELSE ? END, "_from" = CASE WHEN h."_from" = ? THEN NULL ELSE h."_from" END
  FROM w0 AS old
  WHERE "h"."c1" = "old"."c1" AND "h"."c2" = "old"."c2" AND "h"."c3" = "old"."c3" AND "h"."_from" IS NOT NULL AND "h"."_g" = 0 AND "h"."_commit" = "old"."_oc" AND "h"."_pos" = "old"."_op"
  RETURNING 1),
  ins0 AS (INSERT INTO "verso_data"."t1_hist" ("c1", "c2", "c3", "c8", "_g", "_commit", "_pos", "_deleted", "_from") SELECT "s"."c1", "s"."c2", "s"."c3", "s"."c8", 0, ?, s."_pos", ?, CASE WHEN w."_pos" IS NULL THEN NULL ELSE ? END
  FROM src0 AS s LEFT
  JOIN w0 AS w ON "w"."c1" = "s"."c1" AND "w"."c2" = "s"."c2" AND "w"."c3" = "s"."c3" AND w."_pos" = s."_pos"
  RETURNING 1),
  seen0 AS (INSERT INTO verso.group_versions (table_id, group_id, first_commit) SELECT 1, 0, ?
  FROM w0
  LIMIT 1
  ON CONFLICT DO NOTHING),
  closed1 AS (UPDATE "verso_data"."t1_hist" AS h SET "_to" = CASE WHEN h."_from" = ? THEN NULL ELSE ? END, "_from" = CASE WHEN h."_from" = ? THEN NULL ELSE h."_from" END
  FROM w1 AS old
  WHERE "h"."c1" = "old"."c1" AND "h"."c2" = "old"."c2" AND "h"."c3" = "old"."c3" AND "h"."_from" IS NOT NULL AND "h"."_g" = 1 AND "h"."_commit" = "old"."_oc" AND "h"."_pos" = "old"."_op"
  RETURNING 1),
  ins1 AS (INSERT INTO "verso_data"."t1_hist" ("c1", "c2", "c3", "c4", "c5", "c6", "c7", "_g", "_commit", "_pos", "_deleted", "_from") SELECT "s"."c1", "s"."c2", "s"."c3", "s"."c4", "s"."c5", "s"."c6", "s"."c7", 1, ?, s."_pos", ?, CASE WHEN w."_pos" IS NULL THEN NULL ELSE ? END
  FROM src1 AS s LEFT
  JOIN w1 AS w ON "w"."c1" = "s"."c1" AND "w"."c2" = "s"."c2" AND "w"."c3" = "s"."c3" AND w."_pos" = s."_pos"
  RETURNING 1),
  seen1 AS (INSERT INTO verso.group_versions (table_id, group_id, first_commit) SELECT 1, 1, ?
  FROM w1
  LIMIT 1
  ON CONFLICT DO NOTHING) SELECT ((SELECT count(*)
  FROM ins0) + (SELECT count(*)
  FROM ins1)),
  (SELECT array_agg("_pos")
  FROM (SELECT "_pos"
  FROM w0 UNION ALL SELECT "_pos"
  FROM w1) AS w),
  ((SELECT count(*)
  FROM closed0) + (SELECT count(*)
  FROM closed1))
-- $1 = text[1, 1] (ArrayBind)
-- $2 = text[0x9c2e4f1a, 0x77aa] (ArrayBind)
-- $3 = text[USDC, USDC] (ArrayBind)
-- $4 = text[null, null] (ArrayBind)
-- $5 = int4[0, 1] (ArrayBind)
-- $6 = 42 (Long)
-- $7 = text[1, 1] (ArrayBind)
-- $8 = text[0x9c2e4f1a, 0x77aa] (ArrayBind)
-- $9 = text[USDC, USDC] (ArrayBind)
-- $10 = text[null, null] (ArrayBind)
-- $11 = text[null, null] (ArrayBind)
-- $12 = text[300, 300] (ArrayBind)
-- $13 = text[1, 1] (ArrayBind)
-- $14 = int4[0, 1] (ArrayBind)
-- $15 = 42 (Long)
-- $16 = 42 (Long)
-- $17 = true (Boolean)
-- $18 = 42 (Long)
-- $19 = true (Boolean)
-- $20 = 42 (Long)
-- $21 = 42 (Long)
-- $22 = 42 (Long)
-- $23 = 42 (Long)
-- $24 = 42 (Long)
-- $25 = 42 (Long)
-- $26 = true (Boolean)
-- $27 = 42 (Long)
-- $28 = 42 (Long)
-- $29 = 42 (Long)
-- $30 = 42 (Long)
-- $31 = 42 (Long)
-- $32 = 42 (Long)
-- $33 = true (Boolean)
-- $34 = 42 (Long)
-- $35 = 42 (Long)
