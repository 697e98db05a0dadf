SELECT name, coalesce(value, 'none') FROM settings WHERE name = ?

-- compiled
SELECT "name", coalesce("value", ?)
  FROM (SELECT "c1" AS "name", "c2" AS "value"
  FROM "verso_data"."t4_cur"
  WHERE "_d0" = FALSE) AS "settings"
  WHERE ("name" = ?)
-- $1 = 'none'
-- $2 = 1 (Integer)
