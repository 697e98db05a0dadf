SELECT 1 + 1, CAST('2026-01-01' AS DATE) + 1, coalesce(NULL, 'x'), EXTRACT(YEAR FROM TIMESTAMPTZ '2026-05-01 10:00:00+00'), substring('hello' FROM 2 FOR 3), now() - INTERVAL '1 day', 7::float

-- compiled
SELECT (1 + 1),
  (CAST(? AS date) + 1),
  coalesce(NULL, ?),
  EXTRACT(YEAR
  FROM CAST(? AS timestamptz)),
  substring(?
  FROM 2 FOR 3),
  (now() - CAST(? AS interval)),
  CAST(7 AS double precision)
-- $1 = '2026-01-01'
-- $2 = 'x'
-- $3 = '2026-05-01 10:00:00+00'
-- $4 = 'hello'
-- $5 = '1 day'
