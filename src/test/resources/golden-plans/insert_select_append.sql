INSERT INTO events SELECT at, kind, body FROM events WHERE kind = 'x'
-- plan
INSERT INTO events
reads: events (current rows)
needs: WRITE on events, SELECT on events
step 1: read the query's rows, as text per column (at, kind, body)
  SELECT CAST(CAST("q"."c0" AS timestamptz) AS text), CAST(CAST("q"."c1" AS text) AS text), CAST(CAST("q"."c2" AS jsonb) AS text) FROM (SELECT "at", "kind", "body" FROM (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body" FROM "verso_data"."t3_cur" WHERE "_to" IS NULL) AS "events" WHERE ("kind" = ?)) AS "q"("c0", "c1", "c2")
  -- $1 = 'x'
step 2: write the rows read as INSERT ... VALUES writes them, refusing a key that has a current row, at this request's commit
