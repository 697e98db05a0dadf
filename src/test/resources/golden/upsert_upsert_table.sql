UPSERT INTO settings VALUES ('mode', 'fast')

-- compiled
WITH src0 AS (SELECT CAST(u.a0 AS text) AS "c1", CAST(u.a1 AS text) AS "c2", u.pos AS "_pos"
  FROM unnest(?, ?, ?) AS u(a0, a1, pos)),
  best0 AS (SELECT DISTINCT ON ("c1") *
  FROM src0
  ORDER BY "c1", "_pos" DESC),
  cand0 AS (SELECT best0.*, "cur"."_c0" AS "_oc", "cur"."_p0" AS "_op"
  FROM best0 LEFT
  JOIN "verso_data"."t4_cur" AS cur USING ("c1")
  WHERE "cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (?, best0."_pos")),
  pick AS (SELECT "c1", "cand0"."c2", "cand0"."_pos" AS "_pos0"
  FROM cand0),
  won AS (INSERT INTO "verso_data"."t4_cur" AS cur ("c1", "c2", "_c0", "_p0", "_d0") SELECT "c1", "c2", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END, "_pos0", CASE WHEN "_pos0" IS NULL THEN NULL ELSE ? END
  FROM pick
  ON CONFLICT ("c1") DO UPDATE SET "c2" = EXCLUDED."c2", "_c0" = EXCLUDED."_c0", "_p0" = EXCLUDED."_p0", "_d0" = EXCLUDED."_d0"
  WHERE (EXCLUDED."_p0" IS NOT NULL AND ("cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0")))
  RETURNING "cur"."c1", "cur"."_c0", "cur"."_p0"),
  w0 AS MATERIALIZED (SELECT cand0.*
  FROM cand0
  JOIN won USING ("c1")
  WHERE "won"."_c0" = ? AND "won"."_p0" = "cand0"."_pos") SELECT ((SELECT count(*)
  FROM src0)),
  (SELECT array_agg("_pos")
  FROM (SELECT "_pos"
  FROM w0) AS w),
  0
-- $1 = text[mode] (ArrayBind)
-- $2 = text[fast] (ArrayBind)
-- $3 = int4[0] (ArrayBind)
-- $4 = 42 (Long)
-- $5 = 42 (Long)
-- $6 = false (Boolean)
-- $7 = 42 (Long)
