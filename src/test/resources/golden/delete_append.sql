DELETE FROM events WHERE kind IN (SELECT name FROM settings WHERE value = ?)

-- compiled
WITH "m" AS (SELECT "events"."_row"
  FROM (SELECT "ctid" AS "_row", "_commit", "_pos", "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_to" IS NULL) AS "events"
  WHERE ("kind" IN (SELECT "name"
  FROM (SELECT "c1" AS "name", "c2" AS "value"
  FROM "verso_data"."t4_cur"
  WHERE "_d0" = FALSE) AS "settings"
  WHERE ("value" = ?)))),
  "e" AS (UPDATE "verso_data"."t3_cur" AS "x" SET "_to" = ?
  FROM "m"
  WHERE "x"."ctid" = "m"."_row"
  RETURNING 1) SELECT count(*)
  FROM "e"
-- $1 = 1 (Integer)
-- $2 = 42 (Long)
