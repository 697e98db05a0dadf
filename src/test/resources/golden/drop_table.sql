DROP TABLE items

-- compiled
DROP TABLE IF EXISTS "verso_data"."t2_cur", "verso_data"."t2_hist"
