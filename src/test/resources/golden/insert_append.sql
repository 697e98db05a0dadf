INSERT INTO events (at, kind) VALUES ('2026-01-01 00:00:00Z', 'start')

-- compiled
INSERT INTO "verso_data"."t3_cur" ("c1", "c2", "c3", "_commit", "_pos") SELECT "c1", "c2", "c3", ?, "_pos"
  FROM (SELECT CAST(u.a0 AS timestamptz) AS "c1", CAST(u.a1 AS text) AS "c2", CAST(u.a2 AS jsonb) AS "c3", u.pos AS "_pos"
  FROM unnest(?, ?, ?, ?) AS u(a0, a1, a2, pos)) AS src
-- $1 = 42 (Long)
-- $2 = text[2026-01-01 00:00:00Z] (ArrayBind)
-- $3 = text[start] (ArrayBind)
-- $4 = text[null] (ArrayBind)
-- $5 = int4[0] (ArrayBind)
