DELETE HISTORY FROM prices BEFORE SYSTEM_TIME '2026-01-02 03:04:05.678'

-- compiled
DELETE
  FROM "verso_data"."t5_cur"
  WHERE "_to" IS NOT NULL AND "_end" < CAST(? AS timestamp)
-- $1 = '2026-01-02T03:04:05.678'
