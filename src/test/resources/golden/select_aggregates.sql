SELECT kind, count(ALL body) FILTER (WHERE body IS NOT NULL), percentile_cont(0.5) WITHIN GROUP (ORDER BY length(kind)), string_agg(kind, ',' ORDER BY at) FROM events AS OF COMMIT 6 GROUP BY kind HAVING count(*) > 1

-- compiled
SELECT "kind", count("body") FILTER (WHERE ("body" IS NOT NULL)),
  percentile_cont(0.5) WITHIN GROUP (ORDER BY length("kind") ASC),
  string_agg("kind", ?
  ORDER BY "at" ASC)
  FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_commit" <= ? AND ("_to" IS NULL OR "_to" > ?)) AS "events"
  GROUP BY "kind" HAVING (count(*) > 1)
-- $1 = ','
-- $2 = 6 (Long)
-- $3 = 6 (Long)
