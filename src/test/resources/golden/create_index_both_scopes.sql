CREATE INDEX by_token ON balances (token, address) SCOPE BOTH

-- compiled
CREATE INDEX "t1_i1_cur" ON "verso_data"."t1_cur" ("c3", "c2")

CREATE INDEX "t1_i1_hist" ON "verso_data"."t1_hist" ("c3", "c2", "_from")
