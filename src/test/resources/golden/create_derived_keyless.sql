CREATE DERIVED TABLE event_kinds AS SELECT at, kind FROM events WHERE kind <> 'noise'

-- compiled
CREATE TABLE "verso_data"."t9_cur" ("c1" timestamptz, "c2" text, "_commit" bigint NOT NULL, "_pos" integer NOT NULL, "_to" bigint)

CREATE INDEX ON "verso_data"."t9_cur" ("_commit")

INSERT INTO verso.derived_tables (table_id, query, sources, created_commit) VALUES (?, ?, ?, ?)
-- $1 = 9 (Long)
-- $2 = 'SELECT at, kind
  FROM events
  WHERE kind <> 'noise''
-- $3 = text[events] (ArrayBind)
-- $4 = 42 (Long)

SELECT *
  FROM (SELECT "at", "kind"
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_to" IS NULL) AS "events"
  WHERE ("kind" <> ?)) AS "q"
  LIMIT 0
-- $1 = 'noise'

SELECT DISTINCT c
  FROM (SELECT "_commit" AS c
  FROM "verso_data"."t3_cur") AS "s"
  WHERE c >= ? AND c < ?
  ORDER BY c
-- $1 = 1 (Long)
-- $2 = 42 (Long)

INSERT INTO "verso_data"."t9_cur" ("c1", "c2", "_commit", "_pos") SELECT CAST("q"."c0" AS timestamptz),
  CAST("q"."c1" AS text),
  ?, CAST(row_number() OVER () AS integer)
  FROM (SELECT "at", "kind"
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_to" IS NULL) AS "events"
  WHERE ("kind" <> ?)) AS "q"("c0", "c1")
-- $1 = 42 (Long)
-- $2 = 'noise'

SELECT DISTINCT CAST("h"."c1" AS text),
  CAST("h"."c2" AS text),
  CAST("h"."c3" AS text)
  FROM "verso_data"."t3_cur" AS "h"
  WHERE "h"."_commit" = ?
  LIMIT ?
-- $1 = 42 (Long)
-- $2 = 10001 (Integer)
