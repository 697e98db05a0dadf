SELECT kind, CAST(body AS TEXT), CASE WHEN kind = 'a' THEN 1 ELSE 2 END FROM events AS OF COMMIT 5 WHERE at > TIMESTAMP '2026-01-01 00:00:00'

-- compiled
SELECT "kind", CAST("body" AS text),
  CASE WHEN ("kind" = ?) THEN 1 ELSE 2 END
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_commit" <= ? AND ("_to" IS NULL OR "_to" > ?)) AS "events"
  WHERE ("at" > CAST(? AS timestamp))
-- $1 = 'a'
-- $2 = 5 (Long)
-- $3 = 5 (Long)
-- $4 = '2026-01-01 00:00:00'
