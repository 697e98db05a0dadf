CREATE UNIQUE INDEX by_name ON items (name) SCOPE CURRENT

-- compiled
CREATE UNIQUE INDEX "t2_i1_cur" ON "verso_data"."t2_cur" ("c2")
  WHERE "_d0" = FALSE
