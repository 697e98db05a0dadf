SELECT b.address, count(*) AS n, max(i.price) FROM balances AS b LEFT JOIN items AS OF COMMIT 3 AS i ON i.id = b.chain_id GROUP BY b.address HAVING count(*) > 1 ORDER BY 2

-- compiled
SELECT "b"."address", count(*) AS "n", max("i"."price")
  FROM ((SELECT "c1" AS "chain_id", "c2" AS "address", "c3" AS "token", "c4" AS "amount", "c5" AS "updated_at", CASE WHEN "_d1" THEN NULL ELSE "c6" END AS "balance_index", CASE WHEN "_d1" THEN NULL ELSE "c7" END AS "balance_version", "c8" AS "label"
  FROM "verso_data"."t1_cur"
  WHERE "_d0" = FALSE OR "_d1" = FALSE) AS "b" LEFT
  JOIN (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_hist"
  WHERE "_g" = 0 AND "_from" IS NOT NULL AND "_from" <= ? AND ("_to" IS NULL OR "_to" > ?) AND NOT "_deleted") AS "i" ON ("i"."id" = "b"."chain_id"))
  GROUP BY "b"."address" HAVING (count(*) > 1)
  ORDER BY 2 ASC
-- $1 = 3 (Long)
-- $2 = 3 (Long)
