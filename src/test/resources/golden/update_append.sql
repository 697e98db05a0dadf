UPDATE events SET kind = DEFAULT, body = body || ? WHERE kind = ? AND at < now()

-- compiled
WITH "m" AS (SELECT "events"."_row", "events"."_commit", "events"."_pos", "events"."at" AS "v0", CAST((NULL) AS text) AS "v1", CAST(((CASE WHEN verso.concat_fits(ARRAY[coalesce(CAST(octet_length(CAST("body" AS text)) AS bigint),
  0) * 1, coalesce(CAST(octet_length(CAST(? AS text)) AS bigint),
  0) * 1], ?) THEN ("body" || ?) END)) AS jsonb) AS "v2"
  FROM (SELECT "ctid" AS "_row", "_commit", "_pos", "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_to" IS NULL) AS "events"
  WHERE (("kind" = ?) AND ("at" < now()))),
  "e" AS (UPDATE "verso_data"."t3_cur" AS "x" SET "_to" = ?
  FROM "m"
  WHERE "x"."ctid" = "m"."_row"
  RETURNING "m"."_commit", "m"."_pos", "m"."v0", "m"."v1", "m"."v2"),
  "i" AS (INSERT INTO "verso_data"."t3_cur" ("c1", "c2", "c3", "_commit", "_pos") SELECT "e"."v0", "e"."v1", "e"."v2", ?, ? + CAST(row_number() OVER (ORDER BY "e"."_commit", "e"."_pos") AS integer) - 1
  FROM "e"
  RETURNING 1) SELECT count(*)
  FROM "i"
-- $1 = 1 (Integer)
-- $2 = 1 (Integer)
-- $3 = 1 (Integer)
-- $4 = 2 (Integer)
-- $5 = 42 (Long)
-- $6 = 42 (Long)
-- $7 = 7 (Integer)
