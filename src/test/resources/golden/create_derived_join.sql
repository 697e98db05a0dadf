CREATE DERIVED TABLE priced PRIMARY KEY (chain_id, address, token) AS SELECT b.chain_id, b.address, b.token, i.price FROM balances AS b JOIN items AS i ON i.name = b.token

-- compiled
CREATE TABLE "verso_data"."t9_cur" ("c1" bigint NOT NULL, "c2" text NOT NULL, "c3" text NOT NULL, "c4" numeric(12,2),
  "_c0" bigint, "_p0" integer, "_d0" boolean, PRIMARY KEY ("c1", "c2", "c3"))

CREATE TABLE "verso_data"."t9_hist" ("c1" bigint NOT NULL, "c2" text NOT NULL, "c3" text NOT NULL, "c4" numeric(12,2),
  "_g" smallint NOT NULL, "_commit" bigint NOT NULL, "_pos" integer NOT NULL, "_deleted" boolean NOT NULL, "_from" bigint, "_to" bigint) PARTITION BY LIST (("_from" IS NOT NULL))

CREATE TABLE "verso_data"."t9_hist_was_current" PARTITION OF "verso_data"."t9_hist" FOR VALUES IN (TRUE)

CREATE TABLE "verso_data"."t9_hist_never_current" PARTITION OF "verso_data"."t9_hist" FOR VALUES IN (FALSE)

CREATE INDEX ON "verso_data"."t9_hist" ("c1", "c2", "c3", "_g", "_from")

CREATE INDEX ON "verso_data"."t9_hist" USING brin ("_g", "_from")

INSERT INTO verso.derived_tables (table_id, query, sources, created_commit) VALUES (?, ?, ?, ?)
-- $1 = 9 (Long)
-- $2 = 'SELECT b.chain_id, b.address, b.token, i.price
  FROM balances AS b
  JOIN items AS i ON i.name = b.token'
-- $3 = text[balances, items] (ArrayBind)
-- $4 = 42 (Long)

SELECT *
  FROM (SELECT "b"."chain_id", "b"."address", "b"."token", "i"."price"
  FROM ((SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "b"
  JOIN (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "i" ON ("i"."name" = "b"."token"))) AS "q"
  LIMIT 0

SELECT DISTINCT c
  FROM (SELECT "_from" AS c
  FROM "verso_data"."t1_hist"
  WHERE "_from" IS NOT NULL UNION ALL SELECT "_from" AS c
  FROM "verso_data"."t2_hist"
  WHERE "_from" IS NOT NULL) AS "s"
  WHERE c >= ? AND c < ?
  ORDER BY c
-- $1 = 1 (Long)
-- $2 = 42 (Long)

SELECT CAST(coalesce("q"."c0", "d"."chain_id") AS text),
  CAST(coalesce("q"."c1", "d"."address") AS text),
  CAST(coalesce("q"."c2", "d"."token") AS text),
  CAST("q"."c3" AS text),
  "q"."_q" IS NULL, coalesce("q"."_n", 1)
  FROM (SELECT CAST("q0"."c0" AS bigint) AS "c0", CAST("q0"."c1" AS text) AS "c1", CAST("q0"."c2" AS text) AS "c2", CAST("q0"."c3" AS numeric(12,2)) AS "c3", TRUE AS "_q", count(*) OVER (PARTITION BY "q0"."c0", "q0"."c1", "q0"."c2") AS "_n"
  FROM (SELECT "b"."chain_id", "b"."address", "b"."token", "i"."price"
  FROM ((SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "b"
  JOIN (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "i" ON ("i"."name" = "b"."token"))) AS "q0"("c0", "c1", "c2", "c3")) AS "q" FULL
  JOIN (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "price"
  FROM "verso_data"."t9_cur"
  WHERE "_d0" = FALSE) AS "d" ON "q"."c0" = "d"."chain_id" AND "q"."c1" = "d"."address" AND "q"."c2" = "d"."token"
  WHERE "q"."_q" IS NULL OR "d"."chain_id" IS NULL OR "q"."_n" > 1 OR ROW("q"."c0", "q"."c1", "q"."c2", "q"."c3") IS DISTINCT
  FROM ROW("d"."chain_id", "d"."address", "d"."token", "d"."price")

SELECT CAST(coalesce("q"."c0", "d"."chain_id") AS text),
  CAST(coalesce("q"."c1", "d"."address") AS text),
  CAST(coalesce("q"."c2", "d"."token") AS text),
  CAST("q"."c3" AS text),
  "q"."_q" IS NULL, coalesce("q"."_n", 1)
  FROM (SELECT CAST("q0"."c0" AS bigint) AS "c0", CAST("q0"."c1" AS text) AS "c1", CAST("q0"."c2" AS text) AS "c2", CAST("q0"."c3" AS numeric(12,2)) AS "c3", TRUE AS "_q", count(*) OVER (PARTITION BY "q0"."c0", "q0"."c1", "q0"."c2") AS "_n"
  FROM (SELECT "b"."chain_id", "b"."address", "b"."token", "i"."price"
  FROM ((SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "b"
  JOIN (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "i" ON ("i"."name" = "b"."token"))) AS "q0"("c0", "c1", "c2", "c3")
  WHERE "q0"."c0" = ANY(CAST(? AS bigint[])) AND "q0"."c1" = ANY(CAST(? AS text[])) AND "q0"."c2" = ANY(CAST(? AS text[]))) AS "q" FULL
  JOIN (SELECT *
  FROM (SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "price"
  FROM "verso_data"."t9_cur"
  WHERE "_d0" = FALSE) AS "d0"
  WHERE "d0"."chain_id" = ANY(CAST(? AS bigint[])) AND "d0"."address" = ANY(CAST(? AS text[])) AND "d0"."token" = ANY(CAST(? AS text[]))) AS "d" ON "q"."c0" = "d"."chain_id" AND "q"."c1" = "d"."address" AND "q"."c2" = "d"."token"
  WHERE "q"."_q" IS NULL OR "d"."chain_id" IS NULL OR "q"."_n" > 1 OR ROW("q"."c0", "q"."c1", "q"."c2", "q"."c3") IS DISTINCT
  FROM ROW("d"."chain_id", "d"."address", "d"."token", "d"."price")
-- $1 = text[1] (ArrayBind)
-- $2 = text[1] (ArrayBind)
-- $3 = text[1] (ArrayBind)
-- $4 = text[1] (ArrayBind)
-- $5 = text[1] (ArrayBind)
-- $6 = text[1] (ArrayBind)

SELECT DISTINCT CAST("h"."c1" AS text),
  CAST("h"."c2" AS text),
  CAST("h"."c3" AS text)
  FROM "verso_data"."t1_hist" AS "h"
  WHERE "h"."_from" = ?
  LIMIT ?
-- $1 = 42 (Long)
-- $2 = 10001 (Integer)

SELECT DISTINCT CAST("h"."c1" AS text)
  FROM "verso_data"."t2_hist" AS "h"
  WHERE "h"."_from" = ?
  LIMIT ?
-- $1 = 42 (Long)
-- $2 = 10001 (Integer)
