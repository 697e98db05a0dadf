UPSERT INTO items (id, name, ix) SELECT id + 100, name, ix FROM items AS OF COMMIT 9
-- plan
UPSERT INTO items
reads: items AS OF COMMIT 9
needs: WRITE on items, SELECT on items
step 1: read the query's rows, as text per column (id, name, ix)
  SELECT CAST(CAST("q"."c0" AS bigint) AS text), CAST(CAST("q"."c1" AS text) AS text), CAST(CAST("q"."c2" AS integer) AS text) FROM (SELECT ("id" + 100), "name", "ix" FROM (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix" FROM "verso_data"."t2_hist" WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "items") AS "q"("c0", "c1", "c2") ORDER BY 1
  -- $1 = 9 (Long)
  -- $2 = 9 (Long)
step 2: write the rows read as UPSERT ... VALUES writes them, at this request's commit
