SELECT * FROM (items a CROSS JOIN settings s) RIGHT JOIN items b USING (id) FULL OUTER JOIN events e ON e.kind = s.value, events AS OF COMMIT 2 t

-- compiled
SELECT *
  FROM ((((SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "a" CROSS
  JOIN (SELECT "c1" AS "name", "c2" AS "value"
  FROM "verso_data"."t4_cur"
  WHERE "_d0" = FALSE) AS "s") RIGHT
  JOIN (SELECT "c1" AS "id", "c2" AS "name", "c3" AS "price", "c4" AS "ix"
  FROM "verso_data"."t2_cur"
  WHERE "_d0" = FALSE) AS "b" USING ("id")) FULL
  JOIN (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_to" IS NULL) AS "e" ON ("e"."kind" = "s"."value")),
  (SELECT "c1" AS "at", "c2" AS "kind", "c3" AS "body"
  FROM "verso_data"."t3_cur"
  WHERE "_commit" <= ? AND ("_to" IS NULL OR "_to" > ?)) AS "t"
-- $1 = 2 (Long)
-- $2 = 2 (Long)
