DELETE FROM settings WHERE name = ?

-- compiled
WITH src AS (SELECT CAST(u.a0 AS text) AS "c1", CAST(u.a1 AS text) AS "c2", u.pos AS "_pos"
  FROM unnest(?, ?, ?) AS u(a0, a1, pos)),
  best AS (SELECT DISTINCT ON ("c1") *
  FROM src
  ORDER BY "c1", "_pos" DESC),
  cand AS (SELECT best.*, "cur"."_c0" AS "_oc", "cur"."_p0" AS "_op"
  FROM best LEFT
  JOIN "verso_data"."t4_cur" AS cur USING ("c1")
  WHERE "cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (?, best."_pos")),
  won AS (INSERT INTO "verso_data"."t4_cur" AS cur ("c1", "c2", "_c0", "_p0", "_d0") SELECT "c1", "c2", ?, "_pos", ?
  FROM cand
  ON CONFLICT ("c1") DO UPDATE SET "c2" = EXCLUDED."c2", "_c0" = EXCLUDED."_c0", "_p0" = EXCLUDED."_p0", "_d0" = EXCLUDED."_d0"
  WHERE "cur"."_d0" IS NULL OR ("cur"."_c0", "cur"."_p0") < (EXCLUDED."_c0", EXCLUDED."_p0")
  RETURNING "cur"."c1", "cur"."_p0" AS "_pos") SELECT (SELECT count(*)
  FROM src),
  (SELECT array_agg("_pos")
  FROM won)
-- $1 = text[1] (ArrayBind)
-- $2 = text[null] (ArrayBind)
-- $3 = int4[0] (ArrayBind)
-- $4 = 42 (Long)
-- $5 = 42 (Long)
-- $6 = true (Boolean)
