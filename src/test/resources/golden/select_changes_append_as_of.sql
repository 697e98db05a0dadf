SELECT at, kind, _op FROM changes(events) AS OF COMMIT 7

-- compiled
SELECT "at", "kind", "_op"
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body", "_commit" AS "_commit", CAST(? AS text) AS "_op", CAST(NULL AS jsonb) AS "_before"
  FROM "verso_data"."t3_cur"
  WHERE "_commit" <= ?) AS "events"
-- $1 = 'insert'
-- $2 = 7 (Long)
