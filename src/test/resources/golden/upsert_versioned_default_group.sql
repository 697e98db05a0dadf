UPSERT INTO items (id, price, ix) VALUES (1, 9.99, 3), (2, 5, 1)

-- compiled
WITH src0 AS (SELECT CAST(u.a0 AS bigint) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS numeric(12,2)) AS "c3", CAST(u.a3 AS integer) AS "c4", u.pos AS "_pos"
  FROM unnest(?, ?, ?, ?, ?) AS u(a0, a1, a2, a3, pos)),
  best0 AS (SELECT DISTINCT ON ("c1") *
  FROM src0
  ORDER BY "c1", "c4" DESC, "_pos" DESC),
  cand0 AS (SELECT best0.*, "cur"."_c0" AS "_oc", "cur"."_p0" AS "_op"
  FROM best0 LEFT
  JOIN "verso_data"."t2_cur" AS cur USING ("c1")
  WHERE "cur"."_d0" IS NULL OR ("cur"."c4", "cur"."_c0", "cur"."_p0") < (best0."c4", ?, best0."_pos")),
  pick AS (SELECT "c1", "cand0"."c2", "cand0"."c3", "cand0"."c4", "cand0"."_pos" AS "_pos0"
  FROM cand0),
  won AS (INSERT INTO "verso_data"."t2_cur" AS cur ("c1", "c2", "c3", "c4", "_c0", "_p0", "_d0") SELECT "c1", "c2", "c3", "c4", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END, "_pos0", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END
  FROM pick
  ON CONFLICT ("c1") DO UPDATE SET "c2" = EXCLUDED."c2", "c3" = EXCLUDED."c3", "c4" = EXCLUDED."c4", "_c0" = EXCLUDED."_c0", "_p0" = EXCLUDED."_p0", "_d0" = EXCLUDED."_d0"
  WHERE (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."c4", "cur"."_c0", "cur"."_p0") < (EXCLUDED."c4", EXCLUDED."_c0", EXCLUDED."_p0")))
  RETURNING "cur"."c1", "cur"."_c0", "cur"."_p0"),
  w0 AS MATERIALIZED (SELECT cand0.*
  FROM cand0
  JOIN won USING ("c1")
  WHERE "won"."_c0" = ? AND "won"."_p0" = "cand0"."_pos"),
  closed0 AS (UPDATE "verso_data"."t2_hist" AS h SET "_to" = CASE WHEN h."_from" = ? THEN NULL ELSE ? END, "_from" = CASE WHEN h."_from" = ? THEN NULL ELSE h."_from" END
  FROM w0 AS old
  WHERE "h"."c1" = "old"."c1" AND "h"."_from" IS NOT NULL AND "h"."_g" = 0 AND "h"."_commit" = "old"."_oc" AND "h"."_pos" = "old"."_op"
  RETURNING 1),
  ins0 AS (INSERT INTO "verso_data"."t2_hist" ("c1", "c2", "c3", "c4", "_g", "_commit", "_pos", "_deleted", "_from") SELECT "s"."c1", "s"."c2", "s"."c3", "s"."c4", 0, ?, s."_pos", ?, CASE WHEN w."_pos" IS NULL THEN NULL ELSE ? END
  FROM src0 AS s LEFT
  JOIN w0 AS w ON "w"."c1" = "s"."c1" AND w."_pos" = s."_pos"
  RETURNING 1),
  seen0 AS (INSERT INTO verso.group_versions (table_id, group_id, first_commit) SELECT 2, 0, ?
  FROM w0
  LIMIT 1
  ON CONFLICT DO NOTHING) SELECT ((SELECT count(*)
  FROM ins0)),
  (SELECT array_agg("_pos")
  FROM (SELECT "_pos"
  FROM w0) AS w),
  ((SELECT count(*)
  FROM closed0))
-- $1 = text[1, 2] (ArrayBind)
-- $2 = text[unnamed, unnamed] (ArrayBind)
-- $3 = text[9.99, 5] (ArrayBind)
-- $4 = text[3, 1] (ArrayBind)
-- $5 = int4[0, 1] (ArrayBind)
-- $6 = 42 (Long)
-- $7 = 42 (Long)
-- $8 = false (Boolean)
-- $9 = 42 (Long)
-- $10 = 42 (Long)
-- $11 = 42 (Long)
-- $12 = 42 (Long)
-- $13 = 42 (Long)
-- $14 = false (Boolean)
-- $15 = 42 (Long)
-- $16 = 42 (Long)
