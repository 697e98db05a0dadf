DELETE HISTORY FROM balances BEFORE COMMIT ?

-- compiled
DELETE
  FROM "verso_data"."t1_hist"
  WHERE ("_to" IS NOT NULL AND "_to" <= ?) OR ("_from" IS NULL AND "_to" IS NULL AND "_commit" <= ?)
-- $1 = 1 (Long)
-- $2 = 1 (Long)
