CREATE DERIVED TABLE item_counts PRIMARY KEY (name) AS SELECT name, count(*) AS n FROM items GROUP BY name

-- compiled
CREATE TABLE "verso_data"."t9_cur" ("c1" text NOT NULL, "c2" bigint, "_c0" bigint, "_p0" integer, "_d0" boolean, PRIMARY KEY ("c1"))

CREATE TABLE "verso_data"."t9_hist" ("c1" text NOT NULL, "c2" bigint, "_g" smallint NOT NULL, "_commit" bigint NOT NULL, "_pos" integer NOT NULL, "_deleted" boolean NOT NULL, "_from" bigint, "_to" bigint) PARTITION BY LIST (("_from" IS NOT NULL))

CREATE TABLE "verso_data"."t9_hist_was_current" PARTITION OF "verso_data"."t9_hist" FOR VALUES IN (TRUE)

CREATE TABLE "verso_data"."t9_hist_never_current" PARTITION OF "verso_data"."t9_hist" FOR VALUES IN (FALSE)

CREATE INDEX ON "verso_data"."t9_hist" ("c1", "_g", "_from")

CREATE INDEX ON "verso_data"."t9_hist" USING brin ("_g", "_from")

INSERT INTO verso.derived_tables (table_id, query, sources, created_commit) VALUES (?, ?, ?, ?)
-- $1 = 9 (Long)
-- $2 = 'SELECT name, count(*) AS n
  FROM items
  GROUP BY name'
-- $3 = text[items] (ArrayBind)
-- $4 = 42 (Long)

SELECT *
  FROM (SELECT "name", count(*) AS "n"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  GROUP BY "name") AS "q"
  LIMIT 0

SELECT DISTINCT c
  FROM (SELECT "_from" AS c
  FROM "verso_data"."t2_hist"
  WHERE "_from" IS NOT NULL) AS "s"
  WHERE c >= ? AND c < ?
  ORDER BY c
-- $1 = 1 (Long)
-- $2 = 42 (Long)

SELECT CAST(coalesce("q"."c0", "d"."name") AS text),
  CAST("q"."c1" AS text),
  "q"."_q" IS NULL, coalesce("q"."_n", 1)
  FROM (SELECT CAST("q0"."c0" AS text) AS "c0", CAST("q0"."c1" AS bigint) AS "c1", TRUE AS "_q", count(*) OVER (PARTITION BY "q0"."c0") AS "_n"
  FROM (SELECT "name", count(*) AS "n"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  GROUP BY "name") AS "q0"("c0", "c1")) AS "q" FULL
  JOIN (SELECT "c1" AS "name", "c2" AS "n"
  FROM "verso_data"."t9_cur"
  WHERE "_d0" = FALSE) AS "d" ON "q"."c0" = "d"."name"
  WHERE "q"."_q" IS NULL OR "d"."name" IS NULL OR "q"."_n" > 1 OR ROW("q"."c0", "q"."c1") IS DISTINCT
  FROM ROW("d"."name", "d"."n")

SELECT CAST(coalesce("q"."c0", "d"."name") AS text),
  CAST("q"."c1" AS text),
  "q"."_q" IS NULL, coalesce("q"."_n", 1)
  FROM (SELECT CAST("q0"."c0" AS text) AS "c0", CAST("q0"."c1" AS bigint) AS "c1", TRUE AS "_q", count(*) OVER (PARTITION BY "q0"."c0") AS "_n"
  FROM (SELECT "name", count(*) AS "n"
  FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "items"
  GROUP BY "name") AS "q0"("c0", "c1")
  WHERE "q0"."c0" = ANY(CAST(? AS text[]))) AS "q" FULL
  JOIN (SELECT *
  FROM (SELECT "c1" AS "name", "c2" AS "n"
  FROM "verso_data"."t9_cur"
  WHERE "_d0" = FALSE) AS "d0"
  WHERE "d0"."name" = ANY(CAST(? AS text[]))) AS "d" ON "q"."c0" = "d"."name"
  WHERE "q"."_q" IS NULL OR "d"."name" IS NULL OR "q"."_n" > 1 OR ROW("q"."c0", "q"."c1") IS DISTINCT
  FROM ROW("d"."name", "d"."n")
-- $1 = text[1] (ArrayBind)
-- $2 = text[1] (ArrayBind)

SELECT DISTINCT CAST("h"."c1" AS text)
  FROM "verso_data"."t2_hist" AS "h"
  WHERE "h"."_from" = ?
  LIMIT ?
-- $1 = 42 (Long)
-- $2 = 10001 (Integer)
