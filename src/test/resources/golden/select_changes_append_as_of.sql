SELECT at, kind, _op FROM changes(events) AS OF COMMIT 7

-- compiled
SELECT "at", "kind", "_op"
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body", "_commit" AS "_commit", CAST(? AS text) AS "_op", CAST(NULL AS jsonb) AS "_before"
  FROM "verso_data"."t3_cur"
  WHERE ("_to" IS NULL OR "_to" > "_commit") AND "_commit" <= ? UNION ALL SELECT CAST(NULL AS timestamptz) AS "at", CAST(NULL AS text) AS "kind", CAST(NULL AS jsonb) AS "body", "_to" AS "_commit", CAST(? AS text) AS "_op", to_jsonb("_b") - ? AS "_before"
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body", "_to"
  FROM "verso_data"."t3_cur"
  WHERE "_to" > "_commit" AND "_to" <= ?) AS "_b") AS "events"
-- $1 = 'insert'
-- $2 = 7 (Long)
-- $3 = 'delete'
-- $4 = '_to'
-- $5 = 7 (Long)
