ALTER TABLE balances DROP COLUMN label

-- compiled
ALTER TABLE "verso_data"."t1_cur" DROP COLUMN "c8"

ALTER TABLE "verso_data"."t1_hist" DROP COLUMN "c8"
