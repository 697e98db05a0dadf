SELECT 1 + 1, CAST('2026-01-01' AS DATE) + 1, coalesce(NULL, 'x'), EXTRACT(YEAR FROM TIMESTAMPTZ '2026-05-01 10:00:00+00'), substring('hello' FROM 2 FOR 3), now() - INTERVAL '1 day', 7::float

-- compiled
SELECT (? + ?),
  (CAST(? AS date) + ?),
  coalesce(NULL, ?),
  EXTRACT(YEAR
  FROM CAST(? AS timestamptz)),
  substring(?
  FROM ? FOR ?),
  (now() - CAST(? AS interval)),
  CAST(? AS double precision)
-- $1 = 1 (Integer)
-- $2 = 1 (Integer)
-- $3 = '2026-01-01'
-- $4 = 1 (Integer)
-- $5 = 'x'
-- $6 = '2026-05-01 10:00:00+00'
-- $7 = 'hello'
-- $8 = 2 (Integer)
-- $9 = 3 (Integer)
-- $10 = '1 day'
-- $11 = 7 (Integer)
