CREATE INDEX by_price ON items (price) SCOPE HISTORY;
DROP INDEX by_price

-- compiled
CREATE INDEX "t2_i1_hist" ON "verso_data"."t2_hist" ("c3", "_from")

DROP INDEX IF EXISTS "verso_data"."t2_i1_cur"

DROP INDEX IF EXISTS "verso_data"."t2_i1_hist"
