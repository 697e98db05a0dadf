ALTER TABLE balances ADD COLUMN venue TEXT TO ATTRIBUTE GROUP holding

-- compiled
ALTER TABLE "verso_data"."t1_cur" ADD COLUMN "c9" text

ALTER TABLE "verso_data"."t1_hist" ADD COLUMN "c9" text
