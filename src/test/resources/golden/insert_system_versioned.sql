INSERT INTO prices VALUES (1, 10.50), (2, ?)

-- compiled
INSERT INTO "verso_data"."t5_cur" ("c1", "c2", "_from", "_start") VALUES (CAST(? AS bigint),
  CAST(? AS numeric(10,2)),
  ?, CAST(? AS timestamp)),
  (CAST(? AS bigint),
  CAST(? AS numeric(10,2)),
  ?, CAST(? AS timestamp))
-- $1 = '1'
-- $2 = '10.50'
-- $3 = 42 (Long)
-- $4 = '2026-01-02T03:04:05.678'
-- $5 = '2'
-- $6 = '1'
-- $7 = 42 (Long)
-- $8 = '2026-01-02T03:04:05.678'
