CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner TEXT, balance NUMERIC(20,2), seen TIMESTAMPTZ, ATTRIBUTE GROUP money (balance, seen) VALID BY (seen)) VERSIONED

-- compiled
CREATE TABLE "verso_data"."t9_cur" ("c1" bigint NOT NULL, "c2" text, "c3" numeric(20,2),
  "c4" timestamptz, "_c0" bigint, "_p0" integer, "_d0" boolean, "_c1" bigint, "_p1" integer, "_d1" boolean, PRIMARY KEY ("c1"))

CREATE TABLE "verso_data"."t9_hist" ("c1" bigint NOT NULL, "c2" text, "c3" numeric(20,2),
  "c4" timestamptz, "_g" smallint NOT NULL, "_commit" bigint NOT NULL, "_pos" integer NOT NULL, "_deleted" boolean NOT NULL, "_from" bigint, "_to" bigint) PARTITION BY LIST (("_from" IS NOT NULL))

CREATE TABLE "verso_data"."t9_hist_was_current" PARTITION OF "verso_data"."t9_hist" FOR VALUES IN (TRUE)

CREATE TABLE "verso_data"."t9_hist_never_current" PARTITION OF "verso_data"."t9_hist" FOR VALUES IN (FALSE)

CREATE INDEX ON "verso_data"."t9_hist" ("c1", "_g", "_from")

CREATE INDEX ON "verso_data"."t9_hist" USING brin ("_g", "_from")
