SELECT name FROM settings WHERE name IN (SELECT kind FROM changes(events))
-- plan
SELECT
reads: settings (current rows), changes(events)
needs: SELECT on settings, SELECT on events
step 1: read the rows
  SELECT "name" FROM (SELECT "c1" AS "name", "c2" AS "value" FROM "verso_data"."t4_cur" WHERE "_d0" = FALSE) AS "settings" WHERE ("name" IN (SELECT "kind" FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body", "_commit" AS "_commit", CAST(? AS text) AS "_op", CAST(NULL AS jsonb) AS "_before" FROM "verso_data"."t3_cur" WHERE ("_to" IS NULL OR "_to" > "_commit") UNION ALL SELECT CAST(NULL AS timestamptz) AS "at", CAST(NULL AS text) AS "kind", CAST(NULL AS jsonb) AS "body", "_to" AS "_commit", CAST(? AS text) AS "_op", to_jsonb("_b") - ? AS "_before" FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body", "_to" FROM "verso_data"."t3_cur" WHERE "_to" > "_commit") AS "_b") AS "events"))
  -- $1 = 'insert'
  -- $2 = 'delete'
  -- $3 = '_to'
